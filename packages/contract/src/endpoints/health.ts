import { z } from 'zod';
import { errorResponseSchema } from '../common.ts';
import { healthResponseSchema } from '../health.ts';
import { endpoint, publicAccess } from './define.ts';

const tag = 'Service';

/** Whether an instance is up, ready, and what it serves. */
export const serviceEndpoints = {
  health: {
    live: endpoint({
      method: 'GET',
      path: '/api/health',
      summary: 'Répond tant que l’instance tourne ; 503 pendant son démarrage.',
      tag,
      access: publicAccess,
      schema: { response: { 200: healthResponseSchema, 503: errorResponseSchema } },
    }),
    ready: endpoint({
      method: 'GET',
      path: '/api/ready',
      summary: 'Répond quand l’instance peut servir : sa base de données répond (503 sinon).',
      tag,
      access: publicAccess,
      schema: { response: { 200: healthResponseSchema, 503: errorResponseSchema } },
    }),
  },
  reference: {
    openapi: endpoint({
      method: 'GET',
      path: '/api/openapi.json',
      summary: 'Ce document : la référence OpenAPI 3.1 de l’API, générée du catalogue des points d’accès.',
      tag,
      access: publicAccess,
      schema: { response: { 200: z.record(z.string(), z.unknown()) } },
    }),
  },
};
