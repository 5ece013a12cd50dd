import { z } from 'zod';
import {
  claimCheckRequestSchema,
  claimCheckResponseSchema,
  claimRequestSchema,
  claimResponseSchema,
  provisionWaitingResponseSchema,
} from '../claim.ts';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  createDeviceRequestSchema,
  type DeviceKind,
  deviceListQuerySchema,
  devicePageFieldsSchema,
  emitterListResponseSchema,
  emitterResponseSchema,
  sensorListResponseSchema,
  sensorResponseSchema,
  trashListResponseSchema,
  updateDeviceRequestSchema,
} from '../devices.ts';
import { insightsQuerySchema, insightsResponseSchema, watchQuerySchema, watchResponseSchema } from '../insights.ts';
import {
  deviceTokenResponseSchema,
  installationKeyResponseSchema,
  protocolInfoSchema,
  provisionResponseSchema,
  readingsExportQuerySchema,
  readingsQuerySchema,
  readingsResponseSchema,
  telemetryResponseSchema,
} from '../telemetry.ts';
import { deviceAccess, endpoint, everyone, managers, onResource, wholeOrganization, withinSites } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
const manageDevices = managers('gérer les appareils');

/** The readings export's query: the period, the measure, and the time zone of its local times. */
const readingsCsvQuerySchema = readingsExportQuerySchema.extend({ tz: z.string().max(64).optional() });

/** How the summaries name one device of a kind, and all of them. */
interface KindWords {
  /** « un capteur » */
  readonly one: string;
  /** « les capteurs » */
  readonly all: string;
}

const emitterListPageSchema = emitterListResponseSchema.extend(devicePageFieldsSchema.shape);
const sensorListPageSchema = sensorListResponseSchema.extend(devicePageFieldsSchema.shape);

/**
 * The answers of a kind: `{emitters}` or `{sensors}` (with a page's fields), `{emitter}` or
 * `{sensor}`. Typed as either kind's, so that one route serves both kinds from `endpoints[kind]`.
 */
interface KindResponses {
  readonly list: typeof emitterListPageSchema | typeof sensorListPageSchema;
  readonly one: typeof emitterResponseSchema | typeof sensorResponseSchema;
}

/**
 * The endpoints every kind of device has, under `/api/<resource>`: the same routes for emitters
 * and sensors, each answering with its own envelope (`{emitter}` or `{sensor}`).
 */
function deviceResource<const R extends DeviceKind>(resource: R, words: KindWords, responses: KindResponses) {
  const base = `/api/${resource}` as const;
  const byId = `/api/${resource}/:id` as const;
  const tag = 'Appareils';
  return {
    list: endpoint({
      method: 'GET',
      path: base,
      summary: `Liste ${words.all} de l’organisation, par ordre de création.`,
      description:
        'Sans paramètre, toute la liste. Avec au moins un paramètre, une page de la liste dans le même ordre, avec `total` (les appareils qui correspondent, toutes pages comprises) et `nextCursor` (`null` à la dernière page) : `q` cherche dans le nom et le numéro de série, `status` vaut `online`, `offline` ou `never`, `limit` va de 1 à 1 000 (100 par défaut), `cursor` est le `nextCursor` de la page précédente.',
      tag,
      access: withinSites(everyone),
      schema: { querystring: deviceListQuerySchema, response: { 200: responses.list, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: base,
      summary: `Crée ${words.one}.`,
      tag,
      access: withinSites(manageDevices),
      schema: { body: createDeviceRequestSchema, response: { 201: responses.one, ...errors } },
    }),
    get: endpoint({
      method: 'GET',
      path: byId,
      summary: `Lit ${words.one}, avec son état et ses dernières valeurs.`,
      tag,
      access: onResource(everyone, resource),
      schema: { params: idParamsSchema, response: { 200: responses.one, ...errors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: byId,
      summary: `Modifie le nom, le délai de silence ou le site d’${words.one}.`,
      tag,
      access: onResource(manageDevices, resource),
      schema: { params: idParamsSchema, body: updateDeviceRequestSchema, response: { 200: responses.one, ...errors } },
    }),
    remove: endpoint({
      method: 'DELETE',
      path: byId,
      summary: `Met ${words.one} à la corbeille.`,
      description:
        'L’appareil est caché partout et son jeton refusé ; il reste restaurable 30 jours avec son historique, puis il est effacé.',
      tag,
      access: onResource(manageDevices, resource),
      schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
    }),
    restore: endpoint({
      method: 'POST',
      path: `${byId}/restore`,
      summary: `Sort ${words.one} de la corbeille, avec son historique et son jeton.`,
      description: '404 « Cet appareil n’est pas dans la corbeille. » quand il n’y est pas.',
      tag: 'Corbeille',
      access: onResource(manageDevices, resource, 'Cet appareil n’est pas dans la corbeille.'),
      schema: { params: idParamsSchema, response: { 200: responses.one, ...errors } },
    }),
    rotateToken: endpoint({
      method: 'POST',
      path: `${byId}/token`,
      summary: `Donne un nouveau jeton à ${words.one} ; l’ancien cesse aussitôt de fonctionner.`,
      description:
        'Le jeton n’est montré qu’une fois (il n’est conservé qu’haché) ; les sessions MQTT ouvertes de l’appareil sont fermées.',
      tag,
      access: onResource(manageDevices, resource),
      schema: { params: idParamsSchema, response: { 201: deviceTokenResponseSchema, ...errors } },
    }),
    readings: endpoint({
      method: 'GET',
      path: `${byId}/readings`,
      summary: `Lit l’historique d’${words.one} en intervalles (minimum, moyenne, maximum).`,
      description: 'Par défaut les dernières 24 h en 240 intervalles ; 2 000 intervalles au plus, calculés par la base.',
      tag: 'Lectures',
      access: onResource(everyone, resource),
      schema: { params: idParamsSchema, querystring: readingsQuerySchema, response: { 200: readingsResponseSchema, ...errors } },
    }),
    readingsCsv: endpoint({
      method: 'GET',
      path: `${byId}/readings.csv`,
      summary: `Exporte toutes les lectures brutes d’${words.one} sur une période, en CSV pour un tableur.`,
      description:
        'UTF-8 avec BOM, séparateur « ; », virgule décimale, heures locales du fuseau `tz` (« Europe/Paris » par défaut) ; le nom du fichier est proposé dans Content-Disposition.',
      tag: 'Lectures',
      access: onResource(everyone, resource),
      schema: { params: idParamsSchema, querystring: readingsCsvQuerySchema },
      produces: ['text/csv'],
    }),
  };
}

const emitter = deviceResource(
  'emitter',
  { one: 'un émetteur', all: 'les émetteurs' },
  { list: emitterListPageSchema, one: emitterResponseSchema },
);

const sensorResource = deviceResource(
  'sensor',
  { one: 'un capteur', all: 'les capteurs' },
  { list: sensorListPageSchema, one: sensorResponseSchema },
);

const sensor = {
  ...sensorResource,
  insights: endpoint({
    method: 'GET',
    path: '/api/sensor/:id/insights',
    summary: 'Lit l’analyse prédictive d’un capteur : prévision, dépassement prévu, anomalies, dégivrages, dépassements et pile.',
    description:
      'Les 4 prochaines heures au pas de 5 min (intervalle à 80 %), le premier dépassement prévu d’une limite d’une règle active, les anomalies des 7 derniers jours et la fin de vie de la pile ; lu en base, recalculé s’il a plus d’une minute.',
    tag: 'Analyse prédictive',
    access: onResource(everyone, 'sensor'),
    schema: { params: idParamsSchema, querystring: insightsQuerySchema, response: { 200: insightsResponseSchema, ...errors } },
  }),
};

const protocolTag = 'Protocole des appareils';
const protocolErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 413: errorResponseSchema, 429: errorResponseSchema };

/** Devices, emitters and sensors, with what devices call themselves and what surrounds them. */
export const deviceEndpoints = {
  emitter,
  sensor,
  devices: {
    protocol: endpoint({
      method: 'GET',
      path: '/api/devices/protocol',
      summary: 'Dit à un appareil comment joindre ce serveur : port MQTT, chemins d’installation et de télémétrie, sujets.',
      description: '`mqttPort` vaut `null` quand ce serveur n’a pas de MQTT. Public, sans jeton.',
      tag: protocolTag,
      access: deviceAccess,
      schema: { response: { 200: protocolInfoSchema } },
    }),
    provision: endpoint({
      method: 'POST',
      path: '/api/devices/provision',
      summary: 'Installe un appareil avec la clé d’installation de l’organisation, ou un appareil d’usine avec le code de son étiquette.',
      description:
        'Avec `installationKey` : 201 `{deviceId, kind, accessToken}` ; le même numéro de série redonne le même appareil avec un nouveau jeton, un numéro présent dans la corbeille restaure l’appareil ; clé inconnue : 401. Avec `claimCode` : 202 `{"status": "waiting"}` tant que personne n’a rattaché l’appareil, puis 201 ; numéro inconnu ou mauvais code : 404. 429 après 20 essais par adresse IP en 15 min. Corps de 16 Kio au plus.',
      tag: protocolTag,
      access: deviceAccess,
      schema: {
        body: z.unknown().meta({
          examples: [
            { installationKey: 'vik_…', serial: 'SN-0001', kind: 'sensor', name: 'Vitrine', site: 'Boutique Lyon' },
            { serial: 'SN-0001', claimCode: 'K7M2Q9XR4TPW', inactivityTimeoutSeconds: 600 },
          ],
        }),
        response: {
          201: provisionResponseSchema,
          202: provisionWaitingResponseSchema,
          404: errorResponseSchema,
          ...protocolErrors,
        },
      },
    }),
    telemetry: endpoint({
      method: 'POST',
      path: '/api/devices/telemetry',
      summary: 'Enregistre les lectures d’un appareil, authentifié par son jeton (en-tête Authorization).',
      description:
        'Corps : une lecture `{ts?, id?, values}`, un objet plat `{"temperature": 4.2}` ou un tableau de lectures (1 000 au plus, 1 Mio au plus). 202 `{accepted}` une fois les lectures enregistrées ; une lecture invalide fait refuser tout l’envoi (400, ou 413 pour un lot trop gros) ; jeton absent, faux ou révoqué : 401.',
      tag: protocolTag,
      access: deviceAccess,
      schema: {
        body: z.unknown().meta({
          examples: [
            [
              { id: 'frigo-1-000123', ts: '2026-11-26T08:00:00Z', values: { temperature: 3.6, battery: 87 } },
              { id: 'frigo-1-000124', ts: 1795680060000, values: { temperature: 3.7 } },
            ],
            { id: 'SN-0001-1', values: { temperature: 3.6 } },
            { temperature: 4.2 },
          ],
        }),
        response: { 202: telemetryResponseSchema, ...protocolErrors },
      },
    }),
    claim: endpoint({
      method: 'POST',
      path: '/api/devices/claim',
      summary: 'Rattache à l’organisation un appareil d’usine, par le numéro de série et le code de son étiquette.',
      description:
        'L’appareil rejoint l’organisation avec la règle d’alerte de son usage (`preset`). Numéro inconnu, mauvais code ou appareil d’une autre organisation : le même 404 (429 après 10 mauvais codes par compte ou 20 par adresse IP en 15 min) ; déjà installé chez vous : 409 ; dans votre corbeille : restauré, avec le nom, le site et l’usage choisis.',
      tag: 'Rattachement des appareils d’usine',
      access: withinSites(managers('rattacher un appareil')),
      schema: {
        body: claimRequestSchema.meta({
          examples: [{ serial: 'SN-0001', claimCode: 'K7M2Q9XR4TPW', name: 'Vitrine', preset: 'chilled_perishable' }],
        }),
        response: {
          201: claimResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    }),
    claimCheck: endpoint({
      method: 'POST',
      path: '/api/devices/claim/check',
      summary: 'Vérifie l’étiquette d’un appareil d’usine avant son rattachement, sans rien rattacher ni enregistrer.',
      description:
        '200 `{device: {serial, model, kind}}` quand le numéro de série et le code désignent un appareil que vous pouvez rattacher (y compris un appareil de votre corbeille). Sinon les mêmes réponses que `POST /api/devices/claim`, par la même vérification : numéro inconnu, mauvais code ou appareil d’une autre organisation, le même 404 ; déjà installé chez vous, 409. Les mauvais codes comptent avec ceux du rattachement (429 après 10 par compte ou 20 par adresse IP en 15 min, pour les deux).',
      tag: 'Rattachement des appareils d’usine',
      access: withinSites(managers('rattacher un appareil')),
      schema: {
        body: claimCheckRequestSchema.meta({ examples: [{ serial: 'SN-0001', claimCode: 'K7M2Q9XR4TPW' }] }),
        response: {
          200: claimCheckResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    }),
  },
  installationKey: {
    get: endpoint({
      method: 'GET',
      path: '/api/organization/installation-key',
      summary: 'Lit la clé d’installation de l’organisation, avec laquelle un appareil s’installe lui-même.',
      tag: 'Appareils',
      access: wholeOrganization(managers("voir la clé d'installation"), 'voir la clé d’installation'),
      schema: { response: { 200: installationKeyResponseSchema, 401: errorResponseSchema } },
    }),
    rotate: endpoint({
      method: 'POST',
      path: '/api/organization/installation-key',
      summary: 'Crée une nouvelle clé d’installation ; l’ancienne n’installe plus rien, les appareils déjà installés continuent.',
      tag: 'Appareils',
      access: wholeOrganization(managers("renouveler la clé d'installation"), 'renouveler la clé d’installation'),
      schema: { response: { 200: installationKeyResponseSchema, 401: errorResponseSchema } },
    }),
  },
  trash: {
    list: endpoint({
      method: 'GET',
      path: '/api/trash',
      summary: 'Liste les appareils de la corbeille, la suppression la plus récente d’abord.',
      description:
        'Chacun reste restaurable jusqu’à `purgeAt` (`deletedAt` + 30 jours), puis il est effacé avec ses lectures et ses jetons.',
      tag: 'Corbeille',
      access: withinSites(everyone),
      schema: { response: { 200: trashListResponseSchema, 401: errorResponseSchema } },
    }),
  },
  insights: {
    watch: endpoint({
      method: 'GET',
      path: '/api/insights/watch',
      summary: 'Liste « À surveiller » : les capteurs avec un dépassement prévu ou une anomalie en cours, le plus urgent d’abord.',
      description: '`siteId` limite la liste à un site ; 200 capteurs au plus.',
      tag: 'Analyse prédictive',
      access: withinSites(everyone),
      schema: { querystring: watchQuerySchema, response: { 200: watchResponseSchema, ...errors } },
    }),
  },
  stream: {
    open: endpoint({
      method: 'GET',
      path: '/api/stream',
      summary: 'Suit en direct les événements de l’organisation (Server-Sent Events) : lectures, appareils, alertes.',
      description:
        'Jeton dans l’en-tête `Authorization`, donc lu avec `fetch`. Battement toutes les 15 s ; reprise avec `Last-Event-ID` (`resync` quand l’événement est trop ancien, ou `resync` `{"reason": "scope"}` quand la portée du membre vient de changer : tout est à relire) ; une première connexion reçoit d’abord les événements des 10 dernières secondes. 429 au-delà de 10 flux ouverts par compte ou de 200 par organisation.',
      tag: 'Flux direct',
      access: withinSites(everyone),
      schema: {},
      produces: ['text/event-stream'],
    }),
  },
};
