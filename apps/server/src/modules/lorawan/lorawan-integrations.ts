import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type CreateIntegrationRequest, endpoints, type Integration, type IntegrationType, pathOf } from '@vigie/contract';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import type { SecretBox } from '../auth/secret-box.ts';
import type { IntegrationRecord, LorawanDal } from './lorawan-dal.ts';
import { MqttServerError, type MqttTarget, resolveMqttServer } from './mqtt-bridge.ts';

const WRONG_SECRET = 'Secret d’intégration absent ou faux : copiez-le dans l’en-tête « Authorization: Bearer … » du serveur de réseau.';
const MISSING = 'Intégration introuvable.';
/** How long an integration is trusted from memory. */
const MEMORY_MS = 5_000;
/** An integration's last activity is written at most this often. */
const HEARD_EVERY_MS = 60_000;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * The integrations of the organizations' network servers: the address and secret to paste in the
 * network server (a webhook), or the MQTT server Vigie connects to with its sealed API key; each
 * message is authenticated by the integration's secret, and its last activity noted.
 */
export function createLorawanIntegrations(deps: {
  dal: LorawanDal;
  /** Where the network server reaches Vigie (`PUBLIC_URL`). */
  publicUrl: string;
  /** Seals the API keys of MQTT integrations (bound to the integration's id). */
  box: Pick<SecretBox, 'seal' | 'open'>;
  /** Whether an MQTT server may be on loopback or a private network (`WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** Told when an MQTT integration is created or removed (the connections are looked at again at once). */
  mqttChanged?: () => void;
  /** Told of a call to an integration that exists with its secret absent or wrong (its health counts it). */
  wrongSecret?: (id: string, message: string) => Promise<void>;
}) {
  const { dal } = deps;
  /**
   * Every uplink needs its integration: kept a few seconds (a network server sends many frames a
   * second). A change made here is seen at once; one made by another instance within `MEMORY_MS`.
   */
  const integrations = new Map<string, { record: IntegrationRecord | undefined; until: number }>();
  /** When this instance last wrote an integration's last activity. */
  const heardAt = new Map<string, number>();
  const bounded = <K, V>(map: Map<K, V>) => {
    if (map.size > 50_000) map.clear();
  };
  const urlOf = (id: string) => `${deps.publicUrl}${pathOf(endpoints.integrations.events, { id })}`;
  const view = (record: IntegrationRecord): Integration => ({
    id: record.id,
    type: record.type,
    name: record.name,
    url: urlOf(record.id),
    lastEventAt: record.lastEventAt?.toISOString() ?? null,
    // Only on an MQTT integration: a webhook's view stays the contract's five fields.
    ...(record.mqttServer && record.mqttUsername
      ? {
          mqtt: {
            server: record.mqttServer,
            username: record.mqttUsername,
            state: record.mqttState ?? 'connecting',
            error: record.mqttError,
          },
        }
      : {}),
  });

  async function integrationOf(id: string): Promise<IntegrationRecord | undefined> {
    const now = Date.now();
    const known = integrations.get(id);
    if (known && known.until > now) return known.record;
    const record = await dal.integration(id);
    bounded(integrations);
    integrations.set(id, { record, until: now + MEMORY_MS });
    return record;
  }

  return {
    integrationOf,

    async authenticate(id: string, authorization: string | undefined): Promise<IntegrationRecord> {
      const integration = await integrationOf(id);
      const secret = /^Bearer\s+(\S{1,200})\s*$/i.exec(authorization ?? '')?.[1];
      // The same answer for an unknown integration and a wrong secret: nothing is learnt by trying.
      if (!integration) throw unauthorized(WRONG_SECRET);
      const expected = Buffer.from(integration.secretHash, 'hex');
      const given = secret ? hashOf(secret) : null;
      if (!given || expected.length !== given.length || !timingSafeEqual(expected, given)) {
        await deps.wrongSecret?.(integration.id, secret ? 'Secret d’intégration faux.' : 'Secret d’intégration absent.');
        throw unauthorized(WRONG_SECRET);
      }
      return integration;
    },

    /** The integration's last activity, written at most once a minute by this instance (the list shows it to the minute). */
    async heard(id: string, now: Date): Promise<void> {
      if (now.getTime() - (heardAt.get(id) ?? -Infinity) >= HEARD_EVERY_MS) {
        await dal.heard(id, now);
        bounded(heardAt);
        heardAt.set(id, now.getTime());
      }
    },

    async createIntegration(organizationId: string, input: CreateIntegrationRequest): Promise<Integration & { secret: string }> {
      const secret = `vlw_${randomBytes(24).toString('base64url')}`;
      const id = randomUUID();
      let mqtt: { server: string; username: string; sealedPassword: string } | undefined;
      if (input.mqtt) {
        // The address is checked now, as it will be at each connection (a DNS answer may change).
        await resolveMqttServer(input.mqtt.server, deps.allowPrivate).catch((error: unknown) => {
          throw error instanceof MqttServerError ? badRequest(error.message) : error;
        });
        const sealedPassword = deps.box.seal(input.mqtt.password, `lorawan-mqtt:${id}`);
        mqtt = { server: input.mqtt.server, username: input.mqtt.username, sealedPassword };
      }
      const record = await dal.createIntegration({
        id,
        organizationId,
        type: input.type as IntegrationType,
        name: input.name,
        secretHash: hashOf(secret).toString('hex'),
        mqtt,
      });
      if (mqtt) deps.mqttChanged?.();
      return { ...view(record), secret };
    },

    /** The integrations through an MQTT server, their keys opened (one sealed by a key no longer known is left out). */
    async mqttTargets(): Promise<MqttTarget[]> {
      const targets: MqttTarget[] = [];
      for (const record of await dal.mqttIntegrations()) {
        if (!record.mqttServer || !record.mqttUsername || !record.mqttPassword) continue;
        try {
          const password = deps.box.open(record.mqttPassword, `lorawan-mqtt:${record.id}`);
          targets.push({ id: record.id, server: record.mqttServer, username: record.mqttUsername, password });
        } catch {
          await dal.setMqttState(
            record.id,
            'error',
            'Clé d’API illisible (la clé de chiffrement du serveur a changé) : recréez l’intégration.',
          );
        }
      }
      return targets;
    },
    setMqttState: (id: string, state: 'connecting' | 'connected' | 'error', error: string | null) => dal.setMqttState(id, state, error),
    async listIntegrations(organizationId: string): Promise<Integration[]> {
      return (await dal.listIntegrations(organizationId)).map(view);
    },
    async getIntegration(organizationId: string, id: string): Promise<Integration> {
      const record = await dal.integration(id);
      if (!record || record.organizationId !== organizationId) throw notFound(MISSING);
      return view(record);
    },
    async removeIntegration(organizationId: string, id: string): Promise<void> {
      if (!(await dal.removeIntegration(organizationId, id))) throw notFound(MISSING);
      integrations.delete(id);
      deps.mqttChanged?.();
    },
  };
}
