import type { FastifyPluginAsync } from 'fastify';
import { type ReadingsExportOptions, readingsExportRoutes } from './readings-export-routes.ts';

/**
 * The readings export module: every reading of the shops a member (or an API key) sees, over a
 * period, streamed as CSV; it keeps no table.
 * In: the sites (names, time zones), the sensors, and the telemetry's pages of a sensor's
 * readings. Out: its route.
 */
export function createReadingsExportModule(options: ReadingsExportOptions) {
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(readingsExportRoutes, options);
  };
  return { routes };
}

export type ReadingsExportModule = ReturnType<typeof createReadingsExportModule>;
