import { randomUUID } from 'node:crypto';
import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { isPublicAddress } from '../notifications/webhook-sender.ts';

/** An integration through The Things Stack's MQTT server, its API key opened. */
export interface MqttTarget {
  id: string;
  server: string;
  username: string;
  password: string;
}

export type MqttState = 'connecting' | 'connected' | 'error';

/** How often each instance looks at the integrations (takes the free ones, renews its own). */
export const MQTT_TICK_SECONDS = 30;
/** A held connection's turn: three looks; an instance that dies passes it on within this time. */
const LEASE_MS = 3 * MQTT_TICK_SECONDS * 1000;
const CONNECT_TIMEOUT_MS = 10_000;
const RECONNECT_MS = 5_000;
const REFUSED_RECONNECT_MS = 60_000;
/** CONNACK codes of refused credentials (MQTT 3.1.1: 4, 5; MQTT 5: 134, 135). */
const REFUSED_CODES: ReadonlySet<string | number> = new Set([4, 5, 134, 135]);

const PRIVATE_SERVER =
  'Adresse du serveur MQTT refusée : elle mène à cette machine ou à un réseau privé. Donnez l’adresse publique du serveur de réseau (l’opérateur peut l’autoriser avec WEBHOOK_ALLOW_PRIVATE=true).';

/** A refusal of the server's address, told to the person who gave it. */
export class MqttServerError extends Error {}

/**
 * Resolves the server's host once and checks every address, as for webhooks: a name that points at
 * loopback or a private network is refused unless the operator allows it; the connection then goes
 * to the address checked here (a DNS answer that changes in between cannot redirect it).
 */
export async function resolveMqttServer(
  server: string,
  allowPrivate: boolean,
): Promise<{ address: string; hostname: string; port: number; tls: boolean }> {
  const url = new URL(server);
  const tls = url.protocol === 'mqtts:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(hostname)
    ? [{ address: hostname }]
    : await dns.lookup(hostname, { all: true, verbatim: true }).catch(() => {
        throw new MqttServerError(`Le nom « ${hostname} » ne se résout pas : vérifiez l’adresse du serveur MQTT.`);
      });
  if (addresses.length === 0) throw new MqttServerError(`Le nom « ${hostname} » ne se résout pas : vérifiez l’adresse du serveur MQTT.`);
  if (!allowPrivate && !addresses.every(({ address }) => isPublicAddress(address))) throw new MqttServerError(PRIVATE_SERVER);
  return { address: addresses[0]?.address ?? hostname, hostname, port: Number(url.port || (tls ? 8883 : 1883)), tls };
}

/** What went wrong with the connection, in a shop's operator's words. */
function frenchReason(error: Error & { code?: string | number }): string {
  const code = error.code;
  if (code !== undefined && REFUSED_CODES.has(code))
    return 'Identifiants refusés par le serveur MQTT : vérifiez le nom d’utilisateur (application@tenant) et la clé d’API, et que la clé a le droit de lire le trafic de l’application.';
  if (code === 'ECONNREFUSED') return 'Le serveur MQTT refuse la connexion : vérifiez l’adresse et le port.';
  if (code === 'ETIMEDOUT' || /timeout/i.test(error.message)) return 'Le serveur MQTT ne répond pas : vérifiez l’adresse et le port.';
  if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'EPROTO'))
    return 'Connexion TLS impossible avec le serveur MQTT : vérifiez l’adresse (mqtts:// et le port 8883 pour The Things Stack).';
  return `Connexion au serveur MQTT impossible (${error.message.slice(0, 160)}).`;
}

/**
 * The Things Stack's MQTT integration: Vigie connects as a client to each application's MQTT server
 * and subscribes to `v3/{application}@{tenant}/devices/+/up`, whose messages are the uplinks its
 * webhooks would post. One connection per integration across instances: each instance, every
 * `MQTT_TICK_SECONDS`, takes the integrations nobody holds (a lease on `job_leases`), renews its
 * own, and lets go of those it lost or that were removed. A message is acknowledged (PUBACK, QoS 1)
 * only once its readings are committed; one that cannot be stored is not acknowledged, and the
 * connection is dropped so that the server sends it again on the next one.
 */
export function createMqttBridge(deps: {
  targets: () => Promise<MqttTarget[]>;
  leases: { hold(name: string, holder: string, ms: number): Promise<boolean>; release(name: string, holder: string): Promise<void> };
  setState: (id: string, state: MqttState, error: string | null) => Promise<void>;
  deliver: (id: string, body: unknown) => Promise<void>;
  allowPrivate: boolean;
  logger: Logger;
}) {
  const holder = randomUUID();
  const held = new Map<string, { client: MqttClient; fingerprint: string }>();
  /** The state last written per integration by this instance: written again only when it changes. */
  const written = new Map<string, string>();
  let closed = false;

  const leaseName = (id: string) => `lorawan-mqtt:${id}`;

  async function note(id: string, state: MqttState, error: string | null): Promise<void> {
    const key = `${state}|${error ?? ''}`;
    if (written.get(id) === key) return;
    written.set(id, key);
    await deps.setState(id, state, error).catch((failure: unknown) => {
      written.delete(id);
      deps.logger.warn({ err: failure, integration: id }, 'État de la connexion MQTT non enregistré');
    });
  }

  async function stop(id: string, release: boolean): Promise<void> {
    const entry = held.get(id);
    held.delete(id);
    written.delete(id);
    if (entry) await entry.client.endAsync(true).catch(() => undefined);
    if (release) await deps.leases.release(leaseName(id), holder).catch(() => undefined);
  }

  async function connect(target: MqttTarget): Promise<MqttClient> {
    const server = await resolveMqttServer(target.server, deps.allowPrivate);
    const options: IClientOptions = {
      protocol: server.tls ? 'mqtts' : 'mqtt',
      host: server.address,
      port: server.port,
      // The certificate is checked against the name given, not the address connected to.
      servername: server.hostname,
      username: target.username,
      password: target.password,
      clientId: `vigie-${target.id.slice(0, 8)}-${holder.slice(0, 8)}`,
      protocolVersion: 4,
      clean: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectPeriod: RECONNECT_MS,
    };
    const client = mqtt.connect(options);
    let queue = Promise.resolve();
    // Acknowledged once stored, in the order received.
    client.handleMessage = (packet, done) => {
      queue = queue.then(async () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.from(packet.payload).toString('utf8'));
        } catch {
          deps.logger.warn({ integration: target.id, topic: packet.topic }, 'Message MQTT illisible ignoré (JSON attendu)');
          done();
          return;
        }
        try {
          await deps.deliver(target.id, body);
          done();
        } catch (error) {
          deps.logger.error(
            { err: error, integration: target.id },
            'Uplink MQTT non enregistré : la connexion est coupée pour qu’il soit renvoyé',
          );
          client.end(true);
        }
      });
    };
    client.on('connect', () => {
      client.subscribe(`v3/${target.username}/devices/+/up`, { qos: 1 }, (error, granted) => {
        const refused = granted?.some((grant) => grant.qos === 128);
        if (error || refused)
          void note(
            target.id,
            'error',
            'Abonnement refusé par le serveur MQTT : la clé d’API doit pouvoir lire le trafic de l’application.',
          );
        else void note(target.id, 'connected', null);
      });
    });
    client.on('error', (error: Error & { code?: string | number }) => {
      // Credentials refused: asked again once a minute, not every few seconds, until they change.
      if (REFUSED_CODES.has(error.code ?? '')) client.options.reconnectPeriod = REFUSED_RECONNECT_MS;
      void note(target.id, 'error', frenchReason(error));
    });
    return client;
  }

  return {
    /** One look: takes the free integrations, renews its own, lets go of the others. */
    async tick(): Promise<void> {
      if (closed) return;
      const targets = await deps.targets();
      const present = new Set(targets.map((target) => target.id));
      for (const id of [...held.keys()]) if (!present.has(id)) await stop(id, true);
      for (const target of targets) {
        if (!(await deps.leases.hold(leaseName(target.id), holder, LEASE_MS))) {
          // Another instance holds it (this one lost its turn while busy): only one connection.
          if (held.has(target.id)) await stop(target.id, false);
          continue;
        }
        const fingerprint = `${target.server}\n${target.username}\n${target.password}`;
        if (held.get(target.id)?.fingerprint === fingerprint) continue;
        await stop(target.id, false);
        try {
          held.set(target.id, { client: await connect(target), fingerprint });
        } catch (error) {
          const reason = error instanceof MqttServerError ? error.message : frenchReason(error as Error);
          await note(target.id, 'error', reason);
        }
        if (closed) await stop(target.id, true);
      }
    },
    /** The integrations this instance holds a connection for. */
    holding: () => [...held.keys()],
    async close(): Promise<void> {
      closed = true;
      for (const id of [...held.keys()]) await stop(id, true);
    },
  };
}

export type MqttBridge = ReturnType<typeof createMqttBridge>;
