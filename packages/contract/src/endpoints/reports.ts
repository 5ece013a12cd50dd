import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  consolidatedReportQuerySchema,
  createReportRequestSchema,
  reportListQuerySchema,
  reportListResponseSchema,
  reportResponseSchema,
  signReportRequestSchema,
} from '../reports.ts';
import { endpoint, everyone, managers, onResource, withinSites } from './define.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};
const tag = 'Rapports';

/** HACCP compliance reports of the caller's organization, one per site and month. */
export const reportEndpoints = {
  reports: {
    list: endpoint({
      method: 'GET',
      path: '/api/reports',
      summary: 'Liste les rapports HACCP de l’organisation, ou ceux d’un site (siteId), le mois le plus récent d’abord.',
      tag,
      access: withinSites(everyone),
      schema: { querystring: reportListQuerySchema, response: { 200: reportListResponseSchema, ...errors } },
    }),
    create: endpoint({
      method: 'POST',
      path: '/api/reports',
      summary: 'Établit le rapport HACCP d’un site pour un mois, à partir des données du moment.',
      description:
        'Un mois futur ou mal écrit répond 400. Un rendu qui dépasse son budget de temps répond 503, un contenu trop volumineux 422. Un rapport établi ne change plus.',
      tag,
      access: withinSites(managers('établir un rapport')),
      schema: { body: createReportRequestSchema, response: { 201: reportResponseSchema, ...errors } },
    }),
    consolidated: endpoint({
      method: 'GET',
      path: '/api/reports/consolidated',
      summary: 'Télécharge le rapport HACCP consolidé d’un mois (PDF) : la chaîne, ou une région (regionId), une page par magasin.',
      description:
        'Une première page range les magasins, ceux qui demandent une attention d’abord (pas de rapport, conformité la plus basse, points ouverts) ; puis une page par magasin reprend les chiffres de son propre rapport du mois (le plus récent), sans les recalculer. Seuls les magasins que l’on voit y figurent. Une région d’une autre organisation répond 404.',
      tag,
      access: withinSites(everyone),
      schema: { querystring: consolidatedReportQuerySchema },
      produces: ['application/pdf'],
    }),
    get: endpoint({
      method: 'GET',
      path: '/api/reports/:id',
      summary: 'Lit un rapport HACCP et l’instantané de son contenu.',
      tag,
      access: onResource(everyone, 'report'),
      schema: { params: idParamsSchema, response: { 200: reportResponseSchema, ...errors } },
    }),
    pdf: endpoint({
      method: 'GET',
      path: '/api/reports/:id/pdf',
      summary: 'Télécharge le PDF d’un rapport HACCP.',
      description:
        'Son SHA-256 est le `sha256` du rapport, repris dans l’en-tête `x-content-sha256` ; le nom proposé (`Content-Disposition`) est `rapport-haccp_<site>_<mois>.pdf`.',
      tag,
      access: onResource(everyone, 'report'),
      schema: { params: idParamsSchema },
      produces: ['application/pdf'],
    }),
    signedPdf: endpoint({
      method: 'GET',
      path: '/api/reports/:id/signed.pdf',
      summary: 'Télécharge le PDF signé d’un rapport HACCP : le même rapport, le visa rempli.',
      description:
        'Nom, rôle, date et commentaire de la personne qui a signé, dans le cadre « Visa » ; son SHA-256 est le `signedSha256` du rapport (en-tête `x-content-sha256`). Le PDF d’origine reste servi par `/pdf`, octet pour octet. Rapport pas encore signé : 404.',
      tag,
      access: onResource(everyone, 'report'),
      schema: { params: idParamsSchema },
      produces: ['application/pdf'],
    }),
    csv: endpoint({
      method: 'GET',
      path: '/api/reports/:id/csv',
      summary: 'Télécharge les données d’un rapport HACCP en CSV.',
      description:
        'BOM UTF-8, séparateur `;`, virgule décimale ; le nom proposé (`Content-Disposition`) est `rapport-haccp_<site>_<mois>.csv`.',
      tag,
      access: onResource(everyone, 'report'),
      schema: { params: idParamsSchema },
      produces: ['text/csv'],
    }),
    sign: endpoint({
      method: 'POST',
      path: '/api/reports/:id/sign',
      summary: 'Signe un rapport HACCP, avec un commentaire facultatif.',
      description: 'Le corps est facultatif. Un rapport ne se signe qu’une fois : déjà signé, il répond 409.',
      tag,
      access: onResource(managers('signer un rapport'), 'report'),
      // The comment is optional, and so is the body that carries it.
      schema: { params: idParamsSchema, body: signReportRequestSchema.nullish(), response: { 200: reportResponseSchema, ...errors } },
    }),
  },
};
