import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  digestRequestSchema,
  digestResponseSchema,
  myPhoneResponseSchema,
  onCallResponseSchema,
  quietHoursRequestSchema,
  setPhoneRequestSchema,
  updateOnCallRequestSchema,
  verifyPhoneRequestSchema,
  voiceAnswerParamsSchema,
} from '../on-call.ts';
import { endpoint, everyone, managers, onResource, own, publicAccess } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };
const tag = 'Astreinte, SMS et appels';

/** Each person's phone and quiet hours, each site's on-call rota, and the voice call's answer. */
export const onCallEndpoints = {
  phone: {
    get: endpoint({
      method: 'GET',
      path: '/api/user/phone',
      summary: 'Lit le téléphone de la personne connectée, ses heures calmes, et ce que le serveur sait envoyer (SMS, appels).',
      tag,
      access: own(everyone),
      schema: { response: { 200: myPhoneResponseSchema, ...errors } },
    }),
    set: endpoint({
      method: 'PUT',
      path: '/api/user/phone',
      summary:
        'Enregistre le numéro de la personne connectée et lui envoie par SMS un code à six chiffres : il n’est utilisé qu’une fois ce code confirmé.',
      description:
        'Le numéro est lu au format international (E.164) ; sans indicatif, il est lu comme un numéro français (`06 12 34 56 78`). Cinq codes par heure au plus (429 ensuite). 400 si aucun fournisseur de SMS n’est configuré.',
      tag,
      access: own(everyone),
      schema: {
        body: setPhoneRequestSchema.meta({ examples: [{ phone: '06 12 34 56 78' }] }),
        response: { 200: myPhoneResponseSchema, 429: errorResponseSchema, ...errors },
      },
    }),
    verify: endpoint({
      method: 'POST',
      path: '/api/user/phone/verify',
      summary: 'Confirme le numéro par le code reçu par SMS (valable 10 minutes, cinq essais).',
      tag,
      access: own(everyone),
      schema: { body: verifyPhoneRequestSchema, response: { 200: myPhoneResponseSchema, ...errors } },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: '/api/user/phone',
      summary: 'Retire le numéro : plus de SMS ni d’appel pour cette personne.',
      tag,
      access: own(everyone),
      schema: { response: { 204: z.null(), ...errors } },
    }),
    quietHours: endpoint({
      method: 'PUT',
      path: '/api/user/quiet-hours',
      summary:
        'Règle les heures calmes de la personne connectée : les avertissements ne lui sont pas poussés pendant ces heures (les alertes critiques le sont toujours).',
      tag,
      access: own(everyone),
      schema: {
        body: quietHoursRequestSchema.meta({ examples: [{ quietHours: { from: '22:00', to: '07:00' } }] }),
        response: { 200: myPhoneResponseSchema, ...errors },
      },
    }),
  },
  onCall: {
    get: endpoint({
      method: 'GET',
      path: '/api/sites/:id/on-call',
      summary: 'Lit l’astreinte d’un site (créneaux, personnes dans l’ordre, échelle) et qui serait réveillé maintenant.',
      tag,
      access: onResource(everyone, 'site'),
      schema: { params: idParamsSchema, response: { 200: onCallResponseSchema, ...errors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/sites/:id/on-call',
      summary:
        'Remplace l’astreinte d’un site : ses créneaux (nuits, week-ends, jours fériés) et l’échelle notification → SMS → appel → personne suivante.',
      description:
        'Les créneaux sont lus dans l’ordre : le premier qui couvre l’instant donne les personnes d’astreinte. Chaque personne doit voir ce site. Une alerte critique de ce site ouverte pendant un créneau suit l’échelle jusqu’à sa prise en compte.',
      tag,
      access: onResource(managers('régler l’astreinte d’un site'), 'site'),
      schema: {
        params: idParamsSchema,
        body: updateOnCallRequestSchema.meta({
          examples: [
            {
              slots: [
                {
                  name: 'Nuits de semaine',
                  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
                  from: '20:00',
                  to: '07:00',
                  people: ['6f1c2a52-6c8b-4a8e-9a57-2f0e1c9b8d11'],
                },
              ],
              ladder: { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 },
            },
          ],
        }),
        response: { 200: onCallResponseSchema, ...errors },
      },
    }),
  },
  voice: {
    answer: endpoint({
      method: 'POST',
      path: '/api/voice/:token',
      summary:
        'Réponse d’un fournisseur d’appels vocaux quand la personne appelée appuie sur une touche : « 1 » prend l’alerte en compte en son nom.',
      description:
        'Appelée par Twilio (formulaire, champ `Digits`, réponse TwiML) ou Vonage (JSON, `dtmf.digits`, réponse NCCO). Le jeton du chemin est signé par le serveur et nomme l’alerte et la personne ; il expire après 24 heures.',
      tag,
      access: publicAccess,
      schema: { params: voiceAnswerParamsSchema },
      produces: ['application/xml', 'application/json'],
    }),
  },
  digest: {
    get: endpoint({
      method: 'GET',
      path: '/api/user/digest',
      summary: 'Dit si la personne connectée reçoit chaque matin le résumé des alertes de la veille dans ses magasins.',
      tag: 'Résumé quotidien',
      access: own(everyone),
      schema: { response: { 200: digestResponseSchema, ...errors } },
    }),
    set: endpoint({
      method: 'PUT',
      path: '/api/user/digest',
      summary: 'Demande ou arrête le résumé quotidien par e-mail des alertes de la veille.',
      description:
        'Envoyé une fois par jour à partir de 7 h (heure du premier magasin de sa portée), même quand il n’y a eu aucune alerte ; il ne nomme que les magasins de sa portée.',
      tag: 'Résumé quotidien',
      access: own(everyone),
      schema: { body: digestRequestSchema.meta({ examples: [{ enabled: true }] }), response: { 200: digestResponseSchema, ...errors } },
    }),
  },
};
