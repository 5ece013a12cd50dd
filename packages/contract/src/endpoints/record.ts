import { errorResponseSchema } from '../common.ts';
import { checkListQuerySchema, checkListResponseSchema, checkResponseSchema, createCheckRequestSchema } from '../record.ts';
import { endpoint, everyone } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const tag = 'Contrôles manuels';

/** Temperatures taken by hand: a product probed, a delivery at reception, a unit whose sensor is down. */
export const recordEndpoints = {
  checks: {
    list: endpoint({
      method: 'GET',
      path: '/api/checks',
      summary: 'Liste les contrôles manuels des sites que l’on voit, du plus récent au plus ancien (filtres : siteId, sensorId, from, to).',
      tag,
      access: everyone,
      schema: { querystring: checkListQuerySchema, response: { 200: checkListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/checks',
      summary:
        'Note une température prise à la main : un produit à la sonde, une livraison à la réception (acceptée ou refusée), ou un meuble dont le capteur ne répond pas.',
      description:
        'Tout membre peut noter un contrôle dans un site de sa portée (404 sinon). Le contrôle garde qui l’a pris et quand (`takenAt`, maintenant par défaut, ni dans le futur ni plus de 7 jours en arrière). Il n’est jamais mêlé aux lectures des capteurs ; il figure dans le rapport HACCP du mois.',
      tag,
      access: everyone,
      schema: {
        body: createCheckRequestSchema.meta({
          examples: [
            {
              siteId: '3f0c8f2e-8f6a-4d7e-9a3b-2c1d0e9f8a7b',
              kind: 'delivery',
              supplier: 'Laiterie du Mont',
              product: 'Yaourts nature',
              temperature: 9.4,
              accepted: false,
              quantity: { value: 3, unit: 'colis' },
              note: 'Refusée devant le chauffeur.',
            },
          ],
        }),
        response: { 201: checkResponseSchema, ...errors },
      },
    }),
  },
};
