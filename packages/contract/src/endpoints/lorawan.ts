import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  codecListResponseSchema,
  createdIntegrationResponseSchema,
  createIntegrationRequestSchema,
  devEuiParamsSchema,
  integrationEventQuerySchema,
  integrationEventResponseSchema,
  integrationHealthResponseSchema,
  integrationListResponseSchema,
  lorawanDeviceListResponseSchema,
  lorawanSensorResponseSchema,
  pendingLorawanDeviceListResponseSchema,
  registerLorawanDeviceRequestSchema,
  saveCodecRequestSchema,
  codecResponseSchema,
  testCodecRequestSchema,
  testCodecResponseSchema,
} from '../lorawan.ts';
import { deviceAccess, endpoint, everyone, managers, shared, wholeOrganization, withinSites } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const manageIntegrations = managers('gérer les intégrations LoRaWAN');
const tag = 'LoRaWAN';

/** Network servers (The Things Stack, ChirpStack, ThingPark, Live Objects, Loriot, Helium) and the LoRaWAN devices they bring. */
export const integrations = {
  list: endpoint({
    method: 'GET',
    path: '/api/integrations',
    summary: 'Liste les intégrations LoRaWAN de l’organisation (jamais leur secret).',
    tag,
    access: shared(everyone),
    schema: { response: { 200: integrationListResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/integrations',
    summary:
      'Crée une intégration (The Things Stack, ChirpStack, ThingPark, Live Objects, Loriot ou Helium) : son adresse et son secret, montré cette seule fois.',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: {
      body: createIntegrationRequestSchema.meta({ examples: [{ type: 'tts', name: 'The Things Stack du magasin' }] }),
      response: { 201: createdIntegrationResponseSchema, ...errors },
    },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/integrations/:id',
    summary: 'Supprime une intégration : le serveur de réseau n’est plus écouté.',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
  events: endpoint({
    method: 'POST',
    path: '/api/integrations/:id/events',
    summary:
      'Reçoit les messages du serveur de réseau (webhook The Things Stack v3, intégration HTTP ChirpStack v4, connexion HTTP ThingPark, push HTTP Live Objects, sortie HTTP Loriot, intégration HTTP Helium), authentifié par le secret de l’intégration.',
    description:
      'En-tête `Authorization: Bearer <secret>` ; secret absent ou faux : 401, rien n’est enregistré (compté dans la santé de l’intégration). Un message au contenu invalide (JSON mal formé, trame ni hexadécimale ni base64, DevEUI qui n’a pas 16 chiffres hexadécimaux) est répondu 202 `{status: "refused", reason, message}` : rien n’est enregistré, et le serveur de réseau ne coupe pas l’envoi pour autant. The Things Stack : le message tel qu’il l’envoie (`uplink_message`, `join_accept`…). ChirpStack : `?event=up|join|status|…`, encodage JSON. ThingPark : `{DevEUI_uplink: {…}}` en JSON (le XML est refusé, 415). Live Objects : le message de données LoRa (`streamId`, `value.payload`, `metadata.network.lora`). Loriot : `{cmd: "rx"|"gw", EUI, ts, fcnt, port, data}`. Helium : `{dev_eui, fcnt, port, payload, reported_at, hotspots}`. Un DevEUI inconnu est répondu 200 et gardé parmi les « Nouveaux appareils détectés ». La même trame deux fois n’est enregistrée qu’une fois. 64 Kio au plus.',
    tag,
    access: deviceAccess,
    schema: {
      params: idParamsSchema,
      querystring: integrationEventQuerySchema,
      body: z.unknown(),
      response: {
        200: integrationEventResponseSchema,
        202: integrationEventResponseSchema,
        400: errorResponseSchema,
        401: errorResponseSchema,
        413: errorResponseSchema,
        415: errorResponseSchema,
      },
    },
  }),
  health: endpoint({
    method: 'GET',
    path: '/api/integrations/:id/health',
    summary:
      'La santé d’une intégration : son dernier message, ses messages heure par heure sur 24 h et ses derniers messages refusés, avec leur raison.',
    tag,
    access: shared(managers('voir la santé des intégrations LoRaWAN')),
    schema: { params: idParamsSchema, response: { 200: integrationHealthResponseSchema, ...errors } },
  }),
};

export const lorawan = {
  codecs: endpoint({
    method: 'GET',
    path: '/api/lorawan/codecs',
    summary: 'Liste les décodeurs intégrés des capteurs LoRaWAN, avec les mesures de chacun.',
    tag,
    access: shared(everyone),
    schema: { response: { 200: codecListResponseSchema, ...errors } },
  }),
  testCodec: endpoint({
    method: 'POST',
    path: '/api/lorawan/codecs/test',
    summary: 'Essaie un décodeur collé (forme LoRa Alliance TS013) sur une trame, dans son bac à sable.',
    description:
      'Le décodeur tourne dans un interprète QuickJS à part, sans `process`, `require`, `fetch`, fichiers ni réseau, arrêté au-delà de 50 ms ou de 4 Mio : 200 `{result: {ok: true, readings, warnings}}` ou `{result: {ok: false, error}}` (la raison en français).',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: {
      body: testCodecRequestSchema.meta({
        examples: [
          { source: 'function decodeUplink(input) { return { data: { temperature: input.bytes[0] / 10 } }; }', payloadHex: '2a', fPort: 1 },
        ],
      }),
      response: { 200: testCodecResponseSchema, ...errors },
    },
  }),
  saveCodec: endpoint({
    method: 'POST',
    path: '/api/lorawan/codecs',
    summary: 'Enregistre un décodeur collé pour l’organisation, une fois sa trame d’essai décodée.',
    description: 'Ses appareils le nomment `custom:<id>` ; la trame d’essai qui ne se décode pas est refusée (400, la raison en français).',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: { body: saveCodecRequestSchema, response: { 201: codecResponseSchema, ...errors } },
  }),
  removeCodec: endpoint({
    method: 'DELETE',
    path: '/api/lorawan/codecs/:id',
    summary: 'Supprime un décodeur collé qu’aucun appareil n’utilise plus.',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
  devices: endpoint({
    method: 'GET',
    path: '/api/lorawan/devices',
    summary: 'Liste les appareils LoRaWAN enregistrés : DevEUI, décodeur, dernier signal (RSSI, SNR, passerelle).',
    tag,
    access: withinSites(everyone),
    schema: { response: { 200: lorawanDeviceListResponseSchema, ...errors } },
  }),
  register: endpoint({
    method: 'POST',
    path: '/api/lorawan/devices',
    summary: 'Enregistre un capteur LoRaWAN par son DevEUI, avec son décodeur (et sa règle d’alerte, d’après son usage).',
    tag,
    access: wholeOrganization(manageIntegrations, 'gérer les intégrations LoRaWAN'),
    schema: {
      body: registerLorawanDeviceRequestSchema.meta({
        examples: [{ devEui: '24E124136B502217', codec: 'milesight-em300-th', name: 'Chambre froide', preset: 'chilled_perishable' }],
      }),
      response: { 201: lorawanSensorResponseSchema, ...errors },
    },
  }),
  pending: endpoint({
    method: 'GET',
    path: '/api/lorawan/pending',
    summary: 'Nouveaux appareils détectés : les DevEUI inconnus dont le serveur de réseau a transmis des trames, à adopter.',
    tag,
    access: withinSites(everyone),
    schema: { response: { 200: pendingLorawanDeviceListResponseSchema, ...errors } },
  }),
  dismiss: endpoint({
    method: 'DELETE',
    path: '/api/lorawan/pending/:devEui',
    summary: 'Écarte un appareil détecté (il réapparaît s’il émet encore).',
    tag,
    access: wholeOrganization(manageIntegrations, 'écarter un appareil LoRaWAN détecté'),
    schema: { params: devEuiParamsSchema, response: { 204: z.null(), ...errors } },
  }),
};

/** The LoRaWAN area of the catalogue. */
export const lorawanEndpoints = { integrations, lorawan };
