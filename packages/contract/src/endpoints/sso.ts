import { errorResponseSchema } from '../common.ts';
import { loginResponseSchema } from '../auth.ts';
import {
  ssoCallbackQuerySchema,
  ssoDiscoverRequestSchema,
  ssoDiscoverResponseSchema,
  ssoExchangeRequestSchema,
  ssoSettingsRequestSchema,
  ssoSettingsResponseSchema,
  ssoStartQuerySchema,
} from '../sso.ts';
import { admins, endpoint, forPeopleOnly, publicAccess, wholeOrganization } from './define.ts';

const ssoTag = 'Authentification unique';
const settingsErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };
const manageSso = forPeopleOnly(
  wholeOrganization(admins('régler l’authentification unique de l’organisation'), 'régler l’authentification unique de l’organisation'),
);

/** docs/api.md, Authentification unique: an organization's OpenID Connect provider, and the sign-in through it. */
export const ssoEndpoints = {
  organizationSso: {
    get: endpoint({
      method: 'GET',
      path: '/api/organization/sso',
      summary: 'Lit l’authentification unique (OpenID Connect) de l’organisation, ou null.',
      description: 'Le secret du client n’est jamais relu.',
      tag: ssoTag,
      access: manageSso,
      schema: { response: { 200: ssoSettingsResponseSchema, ...settingsErrors } },
    }),
    update: endpoint({
      method: 'PUT',
      path: '/api/organization/sso',
      summary: 'Règle l’authentification unique de l’organisation : fournisseur, client, domaines, rôles, obligation.',
      description:
        '`issuer` : l’émetteur OpenID Connect, découvert à `issuer/.well-known/openid-configuration` (http ou https ; une adresse de cette machine ou d’un réseau privé est refusée sauf `WEBHOOK_ALLOW_PRIVATE=true`). Sans `clientSecret`, le secret enregistré est gardé (obligatoire la première fois). `domains` : les domaines des adresses e-mail des personnes ; un domaine n’appartient qu’à une organisation (409). `defaultRole` : le rôle d’une personne nouvelle, ou celui de son groupe (`groups`) dans `groupRoles`. `enforced` : le mot de passe est refusé aux adresses de ces domaines, et leurs sessions ouvertes par mot de passe prennent fin. Corps de 16 Kio au plus.',
      tag: ssoTag,
      access: manageSso,
      schema: { body: ssoSettingsRequestSchema, response: { 200: ssoSettingsResponseSchema, 409: errorResponseSchema, ...settingsErrors } },
    }),
  },
  sso: {
    discover: endpoint({
      method: 'POST',
      path: '/api/auth/sso/discover',
      summary: 'Dit si le domaine d’une adresse e-mail se connecte par authentification unique, et où.',
      description: 'Répond `{sso: {url}}` (l’adresse qui commence la connexion) ou `{sso: null}` ; la réponse ne dépend que du domaine.',
      tag: ssoTag,
      access: publicAccess,
      schema: { body: ssoDiscoverRequestSchema, response: { 200: ssoDiscoverResponseSchema, 400: errorResponseSchema } },
    }),
    start: endpoint({
      method: 'GET',
      path: '/api/auth/sso/start',
      summary: 'Commence une connexion par authentification unique : redirige (302) vers le fournisseur d’identité.',
      description:
        'Avec `state`, `nonce` et PKCE (S256), gardés en base 10 minutes. `next` : la page demandée d’abord (un chemin de ce site). Domaine sans authentification unique, fournisseur injoignable : 302 vers `/login?sso=<raison>`.',
      tag: ssoTag,
      access: publicAccess,
      schema: { querystring: ssoStartQuerySchema, response: { 400: errorResponseSchema } },
      produces: ['text/html'],
    }),
    callback: endpoint({
      method: 'GET',
      path: '/api/auth/sso/callback',
      summary: 'Retour du fournisseur d’identité : redirige (302) vers la page /login/sso avec un code à usage unique.',
      description:
        'Vers `/login/sso#code=<code à usage unique>&next=<page>`. Une personne nouvelle dont l’adresse est dans les domaines est créée avec `defaultRole` (ou le rôle d’un de ses groupes). `state` faux ou déjà servi, code refusé par le fournisseur, adresse non autorisée : 302 vers `/login?sso=<raison>`, personne n’est connecté.',
      tag: ssoTag,
      access: publicAccess,
      schema: { querystring: ssoCallbackQuerySchema },
      produces: ['text/html'],
    }),
    exchange: endpoint({
      method: 'POST',
      path: '/api/auth/sso/exchange',
      summary: 'Échange le code à usage unique du retour contre une session, comme une connexion.',
      description: 'Répond `{accessToken}`, comme `POST /api/auth/login`. Un code sert une fois, dans les 60 s ; sinon 401.',
      tag: ssoTag,
      access: publicAccess,
      schema: {
        body: ssoExchangeRequestSchema,
        response: { 200: loginResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    }),
  },
};
