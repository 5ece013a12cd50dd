import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import { createSiteRequestSchema, siteListResponseSchema, siteResponseSchema, updateSiteRequestSchema } from '../sites.ts';
import { endpoint, everyone, managers } from './define.ts';

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
    access: everyone,
    schema: { response: { 200: siteListResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/sites',
    summary: 'Crée un site.',
    tag,
    access: manageSites,
    schema: { body: createSiteRequestSchema, response: { 201: siteResponseSchema, ...errors } },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/sites/:id',
    summary: 'Lit un site.',
    tag,
    access: everyone,
    schema: { params: idParamsSchema, response: { 200: siteResponseSchema, ...errors } },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/sites/:id',
    summary: 'Modifie le nom, le fuseau horaire ou les heures d’ouverture d’un site.',
    tag,
    access: manageSites,
    schema: { params: idParamsSchema, body: updateSiteRequestSchema, response: { 200: siteResponseSchema, ...errors } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/sites/:id',
    summary: 'Supprime un site.',
    tag,
    access: manageSites,
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
};

/** The sites area of the catalogue. */
export const siteEndpoints = { sites };
