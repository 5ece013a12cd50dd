import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { CredentialService } from '../../modules/devices/credential-service.ts';
import type { TelemetryService } from '../../modules/telemetry/telemetry-service.ts';
import { createDynamicSecurity } from './dynamic-security.ts';
import type { MqttBroker } from './mqtt-broker.ts';
import { errorPayload, storeTelemetryMessage, TOPIC_PREFIX } from './telemetry-message.ts';

/** Every instance joins this group: the broker hands each telemetry message to one of them. */
export const SHARED_SUBSCRIPTION = `$share/vigie/${TOPIC_PREFIX}+/telemetry`;
const TELEMETRY_TOPIC = /^vigie\/devices\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/telemetry$/;
/** How long the broker keeps an instance's session (its subscription, its unacknowledged messages) while it is away. */
const SESSION_EXPIRY_SECONDS = 24 * 3600;
const FIRST_CONNECTION_TIMEOUT_MS = 30_000;

function connectionOptions(url: string, clientId: string): { url: string; options: IClientOptions; username: string } {
  const parsed = new URL(url);
  const username = decodeURIComponent(parsed.username);
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    username,
    options: {
      clientId,
      username,
      password: decodeURIComponent(parsed.password),
      protocolVersion: 5,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    },
  };
}

/** Resolves at the first CONNACK; mqtt.js keeps reconnecting by itself afterwards. */
function firstConnection(client: MqttClient, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let lastError: Error | undefined;
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`${what} : le broker MQTT (MQTT_BROKER_URL) ne répond pas${lastError ? ` (${lastError.message})` : ''}.`));
    }, FIRST_CONNECTION_TIMEOUT_MS);
    client.on('error', (error) => {
      lastError = error;
      // Refused credentials will not get better by retrying.
      if (/not authorized|bad user ?name or password/i.test(error.message)) {
        clearTimeout(timer);
        client.end(true);
        reject(new Error(`${what} : le broker MQTT refuse le compte de MQTT_BROKER_URL (${error.message}).`));
      }
    });
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * An external broker holds the devices' connections (decision 0027). Vigie keeps the devices'
 * accounts there through the dynamic-security plugin, and consumes telemetry through a shared
 * subscription at QoS 1 with persistent sessions: each message is acknowledged to the broker only
 * once its readings are committed, so a message whose instance died is delivered again when that
 * instance (same client id) comes back, and instances share the load.
 */
export async function connectExternalBroker(options: {
  url: string;
  clientId: string;
  consumers: number;
  publicPort: number;
  credentials: Pick<CredentialService, 'identityOf' | 'useAccess'>;
  telemetry: Pick<TelemetryService, 'ingest'>;
  logger: Logger;
  /** How long a dynamic-security request waits for the broker's answer. */
  commandTimeoutMs?: number;
}): Promise<MqttBroker> {
  const { credentials, telemetry, logger } = options;
  const control = connectionOptions(options.url, `${options.clientId}-control`);
  // The dynamic-security client subscribes to its answers itself on each connection, before its requests.
  const controlClient = mqtt.connect(control.url, { ...control.options, clean: true, resubscribe: false });
  const security = createDynamicSecurity(controlClient, { timeoutMs: options.commandTimeoutMs });
  const consumers: MqttClient[] = [];
  // A start-up that fails part way leaves nothing behind: the caller may try again.
  const abandon = () => {
    credentials.useAccess(null);
    for (const client of consumers) client.end(true);
    security.close();
    controlClient.end(true);
  };
  try {
    await firstConnection(controlClient, 'Connexion de contrôle');
    controlClient.on('error', (error) => logger.warn({ err: error }, 'Broker MQTT : connexion de contrôle en erreur'));
    await security.prepare(control.username);
  } catch (error) {
    abandon();
    throw error;
  }
  credentials.useAccess(security.access);

  const report = (deviceId: string) => (message: string) =>
    controlClient.publish(`${TOPIC_PREFIX}${deviceId}/errors`, errorPayload(message), { qos: 0 });

  async function handle(topic: string, payload: Buffer): Promise<void> {
    const deviceId = TELEMETRY_TOPIC.exec(topic)?.[1];
    // The broker let only the device itself publish there; a device since trashed or purged is dropped.
    const device = deviceId ? await credentials.identityOf(deviceId) : null;
    if (!device) return;
    await storeTelemetryMessage(telemetry, device, payload, report(device.deviceId));
  }

  for (let index = 0; index < options.consumers; index += 1) {
    const consumer = connectionOptions(options.url, `${options.clientId}-${index}`);
    const client = mqtt.connect(consumer.url, {
      ...consumer.options,
      clean: false,
      properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: 32 },
    });
    // mqtt.js sends the PUBACK once this calls back, and hands over the next message only then.
    client.handleMessage = (packet, callback) => {
      if (packet.cmd !== 'publish') return callback();
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      handle(packet.topic, payload).then(
        () => callback(),
        (error: unknown) => {
          // Not acknowledged: the connection starts again and the broker delivers the message anew.
          logger.warn({ err: error, topic: packet.topic }, 'Lectures MQTT non enregistrées : le broker les redonnera');
          client.stream.destroy();
        },
      );
    };
    client.on('connect', (connack) => {
      if (!connack.sessionPresent) {
        client.subscribe(SHARED_SUBSCRIPTION, { qos: 1 }, (error) => {
          if (error) logger.error({ err: error }, 'Broker MQTT : abonnement à la télémétrie refusé');
        });
      }
    });
    client.on('error', (error) => logger.warn({ err: error, clientId: consumer.options.clientId }, 'Broker MQTT : consommateur en erreur'));
    consumers.push(client);
    try {
      await firstConnection(client, `Consommateur ${index + 1}`);
    } catch (error) {
      abandon();
      throw error;
    }
  }

  return {
    port: options.publicPort,
    // The broker closes a device's connections itself when its account changes.
    disconnectDevice: () => undefined,
    async close() {
      credentials.useAccess(null);
      // Messages being stored finish first; those not yet handed over stay with the broker.
      await Promise.all(consumers.map((client) => client.endAsync()));
      security.close();
      await controlClient.endAsync();
    },
  };
}
