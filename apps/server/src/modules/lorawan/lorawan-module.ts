import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { createSecretBox } from '../auth/secret-box.ts';
import { lorawanPublicRoutes, lorawanRoutes } from './lorawan-routes.ts';
import { createLorawanService } from './lorawan-service.ts';
import { createMqttBridge } from './mqtt-bridge.ts';

/**
 * The LoRaWAN module: network servers' integrations (webhooks, and The Things Stack's MQTT server
 * held by one instance), devices by DevEUI with their codecs, and the DevEUIs detected but not
 * registered; it keeps the LoRaWAN tables. In: the telemetry (an uplink's readings take its path),
 * the sensors (a LoRaWAN device is a sensor whose serial is its DevEUI), the sites and the alert
 * rules (a registered device's first rule), the leases across instances (the insights module's).
 * Out: its service, its routes, public (the network server's calls) and for members, and the job
 * that holds the MQTT connections.
 */
export function createLorawanModule(
  options: Omit<Parameters<typeof createLorawanService>[0], 'box' | 'allowPrivate'> & {
    config: Pick<Config, 'totpKey' | 'totpPreviousKeys' | 'webhookAllowPrivate'>;
    jwtSecret: string;
    logger: Logger;
    leases: Parameters<typeof createMqttBridge>[0]['leases'];
  },
) {
  const { config } = options;
  // API keys are sealed with the key of the authenticator apps' secrets: it lives outside the database.
  const box = createSecretBox(config.totpKey ?? options.jwtSecret, 'lorawan-mqtt', config.totpPreviousKeys);
  const lorawan = createLorawanService({
    ...options,
    box,
    allowPrivate: config.webhookAllowPrivate,
    mqttChanged: () => {
      bridge.tick().catch((error: unknown) => options.logger.error({ err: error }, 'Connexions MQTT des intégrations non revues'));
    },
  });
  const bridge = createMqttBridge({
    targets: () => lorawan.mqttTargets(),
    leases: options.leases,
    setState: (id, state, error) => lorawan.setMqttState(id, state, error),
    deliver: (id, body) => lorawan.deliverMqtt(id, body),
    allowPrivate: config.webhookAllowPrivate,
    logger: options.logger,
  });
  const publicRoutes: FastifyPluginAsync = async (app) => {
    await app.register(lorawanPublicRoutes, { lorawan });
  };
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(lorawanRoutes, { lorawan });
  };
  return {
    lorawan,
    bridge,
    publicRoutes,
    routes,
    jobs: { mqtt: () => bridge.tick() },
    services: { lorawan },
    async close() {
      await bridge.close();
      await lorawan.close();
    },
  };
}

export type LorawanModule = ReturnType<typeof createLorawanModule>;
