import {
  calibrationListResponseSchema,
  calibrationParamsSchema,
  calibrationResponseSchema,
  createCalibrationRequestSchema,
} from '../calibration.ts';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import { checkListQuerySchema, checkListResponseSchema, checkResponseSchema, createCheckRequestSchema } from '../record.ts';
import { endpoint, everyone, managers, onResource, withinSites } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const tag = 'Contrôles manuels';
const calibrationTag = 'Vérifications des capteurs';

/** Temperatures taken by hand: a product probed, a delivery at reception, a unit whose sensor is down. */
export const recordEndpoints = {
  checks: {
    list: endpoint({
      method: 'GET',
      path: '/api/checks',
      summary: 'Liste les contrôles manuels des sites que l’on voit, du plus récent au plus ancien (filtres : siteId, sensorId, from, to).',
      tag,
      access: withinSites(everyone),
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
      access: withinSites(everyone),
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
  calibrations: {
    list: endpoint({
      method: 'GET',
      path: '/api/sensor/:id/calibrations',
      summary: 'Liste les vérifications d’un capteur, de la plus récente à la plus ancienne.',
      tag: calibrationTag,
      access: onResource(everyone, 'sensor'),
      schema: { params: idParamsSchema, response: { 200: calibrationListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/sensor/:id/calibrations',
      summary:
        'Note une vérification du capteur contre un instrument de référence : date, méthode, écart mesuré, certificat et prochaine échéance.',
      description:
        'L’écart (`offset`, en °C) est ce que le capteur lit au-dessus de la référence. Les températures du capteur sont corrigées (lecture − écart) à partir de `verifiedAt` et jusqu’à la vérification suivante, y compris celles déjà reçues depuis ; les valeurs brutes restent dans l’export CSV. `verifiedAt` n’est ni dans le futur ni plus de 31 jours en arrière ; `nextDueAt` suit `verifiedAt`. Le certificat (PDF, PNG ou JPEG, 2 Mo au plus, en base64) est gardé avec son empreinte SHA-256. Une vérification ne se modifie ni ne se supprime : une erreur se corrige par une nouvelle vérification.',
      tag: calibrationTag,
      access: onResource(managers('noter une vérification de capteur'), 'sensor'),
      schema: {
        params: idParamsSchema,
        body: createCalibrationRequestSchema.meta({
          examples: [
            {
              verifiedAt: '2026-11-20T09:30:00+01:00',
              method: 'Comparaison en bain thermostaté, sonde étalon n° 4521',
              offset: 0.4,
              nextDueAt: '2027-11-20T09:30:00+01:00',
            },
          ],
        }),
        response: { 201: calibrationResponseSchema, ...errors },
      },
    }),
    certificate: endpoint({
      method: 'GET',
      path: '/api/sensor/:id/calibrations/:calibrationId/certificate',
      summary: 'Télécharge le certificat d’une vérification, tel qu’il a été déposé.',
      tag: calibrationTag,
      access: onResource(everyone, 'sensor', 'Certificat introuvable.'),
      schema: { params: calibrationParamsSchema },
      produces: ['application/pdf', 'image/png', 'image/jpeg'],
    }),
  },
};
