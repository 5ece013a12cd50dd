import type { FastifyPluginAsync } from 'fastify';
import { lorawanPublicRoutes, lorawanRoutes } from './lorawan-routes.ts';
import { createLorawanService } from './lorawan-service.ts';

/**
 * The LoRaWAN module: network servers' integrations, devices by DevEUI with their codecs, and the
 * DevEUIs detected but not registered; it keeps the LoRaWAN tables. In: the telemetry (an uplink's
 * readings take its path), the sensors (a LoRaWAN device is a sensor whose serial is its DevEUI),
 * the sites and the alert rules (a registered device's first rule). Out: its service and its
 * routes, public (the network server's calls) and for members.
 */
export function createLorawanModule(options: Parameters<typeof createLorawanService>[0]) {
  const lorawan = createLorawanService(options);
  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(lorawanPublicRoutes, { lorawan });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(lorawanRoutes, { lorawan });
  };
  return { lorawan, publicRoutes, routes, services: { lorawan }, close: () => lorawan.close() };
}

export type LorawanModule = ReturnType<typeof createLorawanModule>;
