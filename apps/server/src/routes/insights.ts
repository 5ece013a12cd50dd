import {
  errorResponseSchema,
  idParamsSchema,
  insightsQuerySchema,
  insightsResponseSchema,
  watchQuerySchema,
  watchResponseSchema,
} from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { InsightsService } from '../modules/insights/insights-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

/** docs/api.md, Analyse prédictive: a sensor's forecast, predicted breach, anomalies and battery outlook; the « À surveiller » list. */
export const insightsRoutes: FastifyPluginAsyncZod<{ insights: InsightsService }> = async (app, { insights }) => {
  app.get(
    '/sensor/:id/insights',
    { schema: { params: idParamsSchema, querystring: insightsQuerySchema, response: { 200: insightsResponseSchema, ...errors } } },
    async (request) => ({
      insights: await insights.get(currentUser(request).organization.id, request.params.id, request.query.key),
    }),
  );

  app.get(
    '/insights/watch',
    { schema: { querystring: watchQuerySchema, response: { 200: watchResponseSchema, ...errors } } },
    async (request) => ({ watch: await insights.watch(currentUser(request).organization.id, request.query.siteId) }),
  );
};
