import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import { createSiteRequestSchema, siteListResponseSchema, siteResponseSchema, updateSiteRequestSchema } from '../sites.ts';
import { admins, endpoint, everyone, managers, onResource, wholeOrganization, withinSites } from './define.ts';
import { overviewResponseSchema, regionRequestSchema, regionResponseSchema, regionsResponseSchema } from '../regions.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const manageSites = managers('gérer les sites');
const tag = 'Sites';

/** The sites (magasins) of the caller's organization. */
export const sites = {
  list: endpoint({
    method: 'GET',
    path: '/api/sites',
    summary: 'Liste les sites de l’organisation, avec leur fuseau horaire et leurs heures d’ouverture.',
    tag,
    access: withinSites(everyone),
    schema: { response: { 200: siteListResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/sites',
    summary: 'Crée un site.',
    tag,
    access: wholeOrganization(manageSites, 'créer un site'),
    schema: { body: createSiteRequestSchema, response: { 201: siteResponseSchema, ...errors } },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/sites/:id',
    summary: 'Lit un site.',
    tag,
    access: onResource(everyone, 'site'),
    schema: { params: idParamsSchema, response: { 200: siteResponseSchema, ...errors } },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/sites/:id',
    summary: 'Modifie le nom, le fuseau horaire, les heures d’ouverture ou la région d’un site.',
    tag,
    access: onResource(manageSites, 'site'),
    schema: { params: idParamsSchema, body: updateSiteRequestSchema, response: { 200: siteResponseSchema, ...errors } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/sites/:id',
    summary: 'Supprime un site.',
    tag,
    access: onResource(manageSites, 'site'),
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
};

const manageRegions = wholeOrganization(admins('gérer les régions'), 'gérer les régions');
const regionTag = 'Régions et portées';

/** The regions of the caller's organization: groups of sites, for scopes and the overview. */
export const regions = {
  list: endpoint({
    method: 'GET',
    path: '/api/regions',
    summary: 'Liste les régions de l’organisation.',
    tag: regionTag,
    access: withinSites(everyone),
    schema: { response: { 200: regionsResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/regions',
    summary: 'Crée une région.',
    tag: regionTag,
    access: manageRegions,
    schema: { body: regionRequestSchema, response: { 201: regionResponseSchema, ...errors } },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/regions/:id',
    summary: 'Renomme une région.',
    tag: regionTag,
    access: manageRegions,
    schema: { params: idParamsSchema, body: regionRequestSchema, response: { 200: regionResponseSchema, ...errors } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/regions/:id',
    summary: 'Supprime une région ; ses sites restent, sans région.',
    tag: regionTag,
    access: manageRegions,
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
};

/** The chain at a glance: each site of the person's scope with its state. */
export const overview = {
  get: endpoint({
    method: 'GET',
    path: '/api/overview',
    summary:
      'Vue du réseau : chaque site de la portée avec ses capteurs, hors ligne, alertes actives, piles faibles et sa conformité du mois.',
    tag: regionTag,
    access: withinSites(everyone),
    schema: { response: { 200: overviewResponseSchema, ...errors } },
  }),
};

/** The sites area of the catalogue. */
export const siteEndpoints = { sites, regions, overview };
