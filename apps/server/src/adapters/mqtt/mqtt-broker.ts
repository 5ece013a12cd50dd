import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { CredentialService, DeviceIdentity } from '../../modules/devices/credential-service.ts';
import type { TelemetryService } from '../../modules/telemetry/telemetry-service.ts';
import { guardPacketSize } from './packet-guard.ts';
import { errorPayload, MAX_PAYLOAD_BYTES, storeTelemetryMessage, TOPIC_PREFIX } from './telemetry-message.ts';

/** MQTT 3.1.1 CONNACK return codes (aedes declares them as an ambient const enum). */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
/** A packet may hold the largest payload, its topic and its properties; a larger one is refused unread. */
export const MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 64 * 1024;

export interface MqttBroker {
  port: number;
  /**
   * A device's token ended (renewed, or the device trashed): closes its sessions whose token no
   * longer works, and only those (a device that already reconnected with its new token stays).
   */
  disconnectDevice(deviceId: string): void;
  close(): Promise<void>;
}

function authError(message: string, code: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

/** A client id belongs to a device when it is the device id, or starts with it and a separator. */
function clientIdBelongsTo(clientId: string, deviceId: string): boolean {
  return clientId === deviceId || clientId.startsWith(`${deviceId}-`) || clientId.startsWith(`${deviceId}:`);
}

/**
 * The MQTT broker embedded in the server. Aedes allows everything by default; each hook here
 * closes a door: authentication by device id + token, client ids that cannot take over another
 * device's session, publishing and subscribing only under `vigie/devices/<own id>/`. A QoS 1
 * PUBACK goes out only after the readings are committed (aedes acknowledges after
 * authorizePublish, so storage happens there).
 */
export async function startMqttBroker(options: {
  port: number;
  host: string;
  credentials: Pick<CredentialService, 'authenticate'>;
  telemetry: TelemetryService;
  /** Telemetry messages per device per second; beyond, each is refused on the errors topic. */
  maxMessagesPerSecond: number;
  logger: Logger;
}): Promise<MqttBroker> {
  const { credentials, telemetry, logger } = options;
  // Per device, on this broker (a device holds one connection to one instance at a time).
  const messages = new RateLimiterMemory({ keyPrefix: 'mqtt-device', points: options.maxMessagesPerSecond, duration: 1 });
  // When each device was last told it sends too fast.
  const warned = new Map<string, number>();
  const devices = new WeakMap<Client, DeviceIdentity>();
  /** The token each session opened with, checked again when the device's token changes. */
  const tokens = new WeakMap<Client, string>();
  const sessions = new Map<string, Set<Client>>();

  const broker = await Aedes.createBroker({
    // Sessions are not persisted: devices reconnect with a clean session and resend unacknowledged readings.
    maxClientsIdLength: 128,
    authenticate(client, username, password, done) {
      void (async () => {
        const device = await credentials.authenticate(password?.toString('utf8'));
        if (!device || device.deviceId !== username) {
          return done(authError('Identifiants MQTT invalides', BAD_USERNAME_OR_PASSWORD), false);
        }
        if (!clientIdBelongsTo(client.id, device.deviceId)) {
          return done(authError("L'identifiant client doit commencer par l'identifiant de l'appareil", NOT_AUTHORIZED), false);
        }
        devices.set(client, device);
        tokens.set(client, password?.toString('utf8') ?? '');
        let set = sessions.get(device.deviceId);
        if (!set) sessions.set(device.deviceId, (set = new Set()));
        set.add(client);
        done(null, true);
      })().catch((error: unknown) => {
        logger.warn({ err: error }, 'Authentification MQTT impossible');
        done(authError('Serveur indisponible', 3), false);
      });
    },
    authorizeSubscribe(client, subscription, done) {
      const device = devices.get(client);
      const own = device && subscription.topic.startsWith(`${TOPIC_PREFIX}${device.deviceId}/`);
      // A null subscription answers SUBACK 0x80 (refused) and keeps the connection.
      if (!own) return done(null, null);
      done(null, subscription);
    },
    authorizePublish(client, packet, done) {
      const device = client ? devices.get(client) : undefined;
      if (!client || !device) return done(new Error('Publication refusée'));
      const own = `${TOPIC_PREFIX}${device.deviceId}/`;
      if (!packet.topic.startsWith(own)) return done(new Error('Publication refusée hors du sujet de l’appareil'));
      // Retained messages would outlive the device's rights: never keep them.
      packet.retain = false;
      if (packet.topic !== `${own}telemetry`) return done(null);

      const reportError = (message: string) => {
        broker.publish(
          { cmd: 'publish', topic: `${own}errors`, payload: errorPayload(message), qos: 0, retain: false, dup: false },
          () => undefined,
        );
      };
      const store = () => {
        storeTelemetryMessage(telemetry, device, Buffer.from(packet.payload), reportError).then(
          () => done(null),
          (error: unknown) => {
            // Storage failed: no PUBACK, the connection closes and the device sends again.
            logger.warn({ err: error, deviceId: device.deviceId }, 'Lectures MQTT non enregistrées');
            done(error instanceof Error ? error : new Error(String(error)));
          },
        );
      };
      // Beyond its rate, a device waits: its message is stored once the second allows it, and
      // meanwhile the broker reads nothing more from it (TCP pushes back). Nothing acknowledged is
      // lost, and a flood costs neither memory nor the other devices' turn. It is told once a second.
      const admit = (): void => {
        messages.consume(device.deviceId).then(store, (error: unknown) => {
          if (!(error instanceof RateLimiterRes)) return done(error instanceof Error ? error : new Error(String(error)));
          const now = Date.now();
          if ((warned.get(device.deviceId) ?? 0) <= now - 1000) {
            warned.set(device.deviceId, now);
            reportError(
              `Trop de messages : ${options.maxMessagesPerSecond} par seconde au plus pour un appareil. Les suivants attendent leur tour : espacez les envois.`,
            );
          }
          setTimeout(admit, Math.max(1, error.msBeforeNext)).unref();
        });
      };
      admit();
    },
  });

  broker.on('clientDisconnect', (client) => {
    const device = devices.get(client);
    if (device) sessions.get(device.deviceId)?.delete(client);
    if (device) warned.delete(device.deviceId);
  });
  broker.on('clientError', (client, error) => logger.debug({ err: error, clientId: client.id }, 'Erreur de client MQTT'));

  const server = net.createServer((socket) => {
    const remote = socket.remoteAddress;
    broker.handle(socket);
    guardPacketSize(socket, MAX_PACKET_BYTES, (announced) =>
      logger.warn({ remote, announced, limit: MAX_PACKET_BYTES }, 'Paquet MQTT trop volumineux : connexion fermée avant de le lire'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    port,
    disconnectDevice(deviceId) {
      // The news may come late (from another instance, through the database): by then the device
      // may have reconnected with its new token, and that session must stay.
      for (const client of sessions.get(deviceId) ?? []) {
        credentials.authenticate(tokens.get(client)).then(
          (identity) => {
            if (identity?.deviceId !== deviceId) client.close();
          },
          () => client.close(),
        );
      }
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const set of sessions.values()) for (const client of set) client.close();
      });
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
