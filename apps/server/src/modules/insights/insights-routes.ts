import { endpoints } from '@vigie/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { InsightsService } from './insights-service.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { sitesOf, withinScope } from '../../plugins/scope.ts';

/** docs/api.md, Analyse prédictive: a sensor's forecast, predicted breach, anomalies and battery outlook; the « À surveiller » list. */
export const insightsRoutes: FastifyPluginAsyncZod<{ insights: InsightsService }> = async (app, { insights }) => {
  app.route({
    ...route(endpoints.sensor.insights),
    handler: async (request) => ({
      insights: await insights.get(currentUser(request).organization.id, request.params.id, request.query.key),
    }),
  });

  app.route({
    ...route(endpoints.insights.watch),
    handler: async (request) => ({
      watch: withinScope(
        await sitesOf(request),
        await insights.watch(currentUser(request).organization.id, request.query.siteId),
        (item) => item.siteId,
      ),
    }),
  });
};
