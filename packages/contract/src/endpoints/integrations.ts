import { z } from 'zod';
import { allReadingsCsvQuerySchema, apiKeysResponseSchema, createApiKeyRequestSchema, createdApiKeyResponseSchema } from '../api-keys.ts';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import { admins, endpoint, everyone, forPeopleOnly, wholeOrganization, withinSites } from './define.ts';

const keyErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const manageKeys = forPeopleOnly(wholeOrganization(admins('gérer les clés d’API'), 'gérer les clés d’API'));
const apiKeysTag = 'Clés d’API';

/** What programs use: the organization's API keys, and the export of every reading of its sites. */
export const integrationEndpoints = {
  apiKeys: {
    list: endpoint({
      method: 'GET',
      path: '/api/api-keys',
      summary: 'Liste les clés d’API de l’organisation, révoquées exclues, la plus récente d’abord.',
      description: 'Le secret d’une clé n’est jamais relu : seul son début (`prefix`) la reconnaît.',
      tag: apiKeysTag,
      access: manageKeys,
      schema: { response: { 200: apiKeysResponseSchema, ...keyErrors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/api-keys',
      summary: 'Crée une clé d’API, avec un rôle (lecteur ou responsable), une portée et une échéance facultatives.',
      description:
        'La clé (`key`) n’est montrée que dans cette réponse ; elle s’envoie en `Authorization: Bearer <key>`. Rôle `admin` ou inconnu, échéance passée, portée qui nomme un site ou une région d’une autre organisation : 400. Corps de 8 Kio au plus.',
      tag: apiKeysTag,
      access: manageKeys,
      schema: { body: createApiKeyRequestSchema, response: { 201: createdApiKeyResponseSchema, ...keyErrors } },
    }),
    revoke: endpoint({
      method: 'DELETE',
      path: '/api/api-keys/:id',
      summary: 'Révoque une clé d’API : elle est refusée aussitôt (401), sur chaque instance.',
      description: 'Clé inconnue, déjà révoquée ou d’une autre organisation : 404.',
      tag: apiKeysTag,
      access: manageKeys,
      schema: { params: idParamsSchema, response: { 204: z.null(), ...keyErrors } },
    }),
  },
  readingsExport: {
    csv: endpoint({
      method: 'GET',
      path: '/api/readings.csv',
      summary: 'Exporte en CSV toutes les lectures des magasins de sa portée (ou d’un seul) sur une période.',
      description:
        '`from` et `to` obligatoires (ISO 8601), 366 jours au plus ; `siteId` : un magasin, sinon tous ceux de la portée ; `key` : une mesure. Colonnes `capteur;id;magasin;horodatage;mesure;valeur` : UTF-8 avec BOM, séparateur « ; », virgule décimale, heure locale du magasin `AAAA-MM-JJ HH:MM:SS`. Envoyé au fil de la lecture, par pages : aucune limite de lignes. Période invalide : 400 ; magasin hors de la portée ou d’une autre organisation : 404.',
      tag: 'Lectures',
      access: withinSites(everyone),
      schema: { querystring: allReadingsCsvQuerySchema },
      produces: ['text/csv'],
    }),
  },
};
