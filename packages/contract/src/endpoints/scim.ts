import { z } from 'zod';
import { errorResponseSchema } from '../common.ts';
import {
  scimBodySchema,
  scimDocumentSchema,
  scimErrorSchema,
  scimIdParamsSchema,
  scimListQuerySchema,
  scimListResponseSchema,
  scimTokenResponseSchema,
  scimUserSchema,
} from '../scim.ts';
import { admins, deviceAccess, endpoint, forPeopleOnly, wholeOrganization } from './define.ts';

const tag = 'Provisionnement SCIM';
const manageScim = forPeopleOnly(wholeOrganization(admins('gérer le provisionnement SCIM'), 'gérer le provisionnement SCIM'));
/** Every SCIM answer that is not a success: a SCIM error (`status` as text, `detail` in French). */
const scimErrors = {
  400: scimErrorSchema,
  401: scimErrorSchema,
  404: scimErrorSchema,
  409: scimErrorSchema,
  415: scimErrorSchema,
  429: scimErrorSchema,
};
const scimAuth = 'En-tête `Authorization: Bearer <jeton SCIM>` ; jeton absent, faux ou remplacé : 401.';

/**
 * SCIM 2.0 (docs/api.md, Provisionnement SCIM): the organization's token, made by an admin, and
 * what the identity provider calls with it, `application/scim+json` or JSON.
 */
export const scimEndpoints = {
  scimToken: {
    create: endpoint({
      method: 'POST',
      path: '/api/organization/scim-token',
      summary: 'Crée le jeton SCIM de l’organisation, qui remplace le précédent.',
      description:
        'Le jeton (`token`) n’est montré que dans cette réponse ; l’ancien est refusé (401) dès la réponse. Seule son empreinte SHA-256 est gardée.',
      tag,
      access: manageScim,
      schema: {
        response: { 201: scimTokenResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    }),
  },
  scim: {
    serviceProviderConfig: endpoint({
      method: 'GET',
      path: '/api/scim/v2/ServiceProviderConfig',
      summary: 'Décrit ce que le service SCIM sait faire (PATCH, filtre, jeton porteur).',
      description: scimAuth,
      tag,
      access: deviceAccess,
      schema: { response: { 200: scimDocumentSchema, ...scimErrors } },
    }),
    resourceTypes: endpoint({
      method: 'GET',
      path: '/api/scim/v2/ResourceTypes',
      summary: 'Liste les types de ressources SCIM servis (User).',
      description: scimAuth,
      tag,
      access: deviceAccess,
      schema: { response: { 200: scimDocumentSchema, ...scimErrors } },
    }),
    schemas: endpoint({
      method: 'GET',
      path: '/api/scim/v2/Schemas',
      summary: 'Décrit le schéma SCIM des utilisateurs et les attributs gardés.',
      description: scimAuth,
      tag,
      access: deviceAccess,
      schema: { response: { 200: scimDocumentSchema, ...scimErrors } },
    }),
    listUsers: endpoint({
      method: 'GET',
      path: '/api/scim/v2/Users',
      summary: 'Liste les membres de l’organisation en ListResponse SCIM, par page, ou celui d’une adresse.',
      description: `${scimAuth} \`filter=userName eq "adresse"\` (aussi \`id eq\`, \`emails.value eq\`) ; \`startIndex\` à partir de 1, \`count\` de 0 à 200. Autre filtre : 400 \`invalidFilter\`.`,
      tag,
      access: deviceAccess,
      schema: { querystring: scimListQuerySchema, response: { 200: scimListResponseSchema, ...scimErrors } },
    }),
    createUser: endpoint({
      method: 'POST',
      path: '/api/scim/v2/Users',
      summary: 'Crée un membre sans mot de passe (il se connecte par authentification unique) au rôle par défaut de l’organisation.',
      description: `${scimAuth} \`userName\` est son adresse e-mail ; \`displayName\` ou \`name\` son nom. Rôle : \`defaultRole\` des réglages d’authentification unique, lecteur sans eux. Adresse déjà membre, ou compte d’une autre organisation : 409 \`uniqueness\`. Corps invalide : 400, rien n’est enregistré.`,
      tag,
      access: deviceAccess,
      schema: { body: scimBodySchema, response: { 201: scimUserSchema, ...scimErrors } },
    }),
    getUser: endpoint({
      method: 'GET',
      path: '/api/scim/v2/Users/:id',
      summary: 'Donne un membre de l’organisation en ressource User SCIM.',
      description: `${scimAuth} Inconnu ou d’une autre organisation : 404.`,
      tag,
      access: deviceAccess,
      schema: { params: scimIdParamsSchema, response: { 200: scimUserSchema, ...scimErrors } },
    }),
    replaceUser: endpoint({
      method: 'PUT',
      path: '/api/scim/v2/Users/:id',
      summary: 'Remplace l’adresse et le nom d’un membre, ou le retire de l’organisation avec active à false.',
      description: `${scimAuth} Comme PATCH : \`active: false\` retire le membre, ses sessions et ses flux directs prennent fin aussitôt.`,
      tag,
      access: deviceAccess,
      schema: { params: scimIdParamsSchema, body: scimBodySchema, response: { 200: scimUserSchema, ...scimErrors } },
    }),
    patchUser: endpoint({
      method: 'PATCH',
      path: '/api/scim/v2/Users/:id',
      summary: 'Modifie un membre par opérations PatchOp, ou le retire de l’organisation avec active à false.',
      description: `${scimAuth} \`Operations\` : \`add\`, \`replace\`, \`remove\` (casse indifférente) sur \`active\`, \`userName\`, \`displayName\`, \`name.formatted\`, \`emails[type eq "work"].value\`, ou sans \`path\` avec un objet ; \`"False"\` vaut \`false\`. \`active: false\` retire le membre de l’organisation, ses sessions et ses flux directs prennent fin aussitôt. Les autres attributs sont ignorés.`,
      tag,
      access: deviceAccess,
      schema: { params: scimIdParamsSchema, body: scimBodySchema, response: { 200: scimUserSchema, ...scimErrors } },
    }),
    deleteUser: endpoint({
      method: 'DELETE',
      path: '/api/scim/v2/Users/:id',
      summary: 'Retire un membre de l’organisation, ses sessions et ses flux directs prennent fin aussitôt.',
      description: `${scimAuth} Inconnu : 404 ; dernier administrateur : 409.`,
      tag,
      access: deviceAccess,
      schema: { params: scimIdParamsSchema, response: { 204: z.null(), ...scimErrors } },
    }),
  },
};
