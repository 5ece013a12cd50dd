import { errorResponseSchema, idParamsSchema, insightsQuerySchema, insightsResponseSchema } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { InsightsService } from '../modules/insights/insights-service.ts';
import { currentUser } from '../plugins/authenticate.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

/** PRODUCT §11: a sensor's forecast, predicted breach and battery outlook. */
export const insightsRoutes: FastifyPluginAsyncZod<{ insights: InsightsService }> = async (app, { insights }) => {
  app.get(
    '/sensor/:id/insights',
    { schema: { params: idParamsSchema, querystring: insightsQuerySchema, response: { 200: insightsResponseSchema, ...errors } } },
    async (request) => ({
      insights: await insights.get(currentUser(request).organization.id, request.params.id, request.query.key),
    }),
  );
};
