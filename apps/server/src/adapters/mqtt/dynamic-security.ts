import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { AppError } from '../../errors.ts';
import type { DeviceAccess } from '../../modules/credentials/credential-service.ts';
import { TOPIC_PREFIX } from './telemetry-message.ts';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const COMMAND_TIMEOUT_MS = 5_000;
/** The role that lets Vigie's own account consume telemetry and answer on the devices' errors topics. */
export const SERVICE_ROLE = 'vigie-service';

interface Command {
  command: string;
  [field: string]: unknown;
}
interface Response {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

const unavailable = () => new AppError(503, 'Le broker MQTT ne répond pas : réessayez dans un instant.');

/** A device's own role: its topics and nothing else (Mosquitto 2.0 has no `%u` in subscription patterns). */
const deviceRole = (deviceId: string) => `vigie-device-${deviceId}`;

/**
 * Mosquitto's dynamic-security plugin, driven over its `$CONTROL` topic: a device's account
 * (user name = device id, password = its token, client id = device id) and its own role, which
 * allows publishing its telemetry and subscribing under `vigie/devices/<id>/`, nothing more. A new
 * password or a disabled account closes the device's open connections in the broker at once.
 */
export function createDynamicSecurity(client: MqttClient) {
  const pending = new Map<string, { resolve: (responses: Response[]) => void; reject: (error: Error) => void }>();
  let subscribed: Promise<unknown> | null = null;

  client.on('message', (topic, payload) => {
    if (topic !== RESPONSE_TOPIC) return;
    let responses: Response[];
    try {
      responses = (JSON.parse(payload.toString('utf8')) as { responses?: Response[] }).responses ?? [];
    } catch {
      return;
    }
    // One request carries one correlation id on each of its commands.
    const id = responses[0]?.correlationData;
    const waiting = id ? pending.get(id) : undefined;
    if (!id || !waiting) return;
    pending.delete(id);
    waiting.resolve(responses);
  });

  /** Sends the commands in one message; the broker answers them in order. */
  async function send(commands: Command[]): Promise<Response[]> {
    subscribed ??= client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 }).catch((error: unknown) => {
      subscribed = null;
      throw error;
    });
    await subscribed;
    const id = randomUUID();
    const answered = new Promise<Response[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(unavailable());
      }, COMMAND_TIMEOUT_MS);
      timer.unref();
      pending.set(id, {
        resolve: (responses) => {
          clearTimeout(timer);
          resolve(responses);
        },
        reject,
      });
    });
    client.publish(CONTROL_TOPIC, JSON.stringify({ commands: commands.map((command) => ({ ...command, correlationData: id })) }), {
      qos: 1,
    });
    return answered;
  }

  /** Fails unless every command succeeded or failed only in one of the `tolerated` ways. */
  async function run(commands: Command[], tolerated: RegExp = /^$/): Promise<Response[]> {
    const responses = await send(commands);
    const failed = responses.find((response) => response.error && !tolerated.test(response.error));
    if (failed) throw new AppError(503, `Le broker MQTT a refusé « ${failed.command} » : ${failed.error ?? ''}.`);
    return responses;
  }

  const access: DeviceAccess = {
    async grant(deviceId, token) {
      const role = deviceRole(deviceId);
      const [, created] = await send([
        {
          command: 'createRole',
          rolename: role,
          acls: [
            { acltype: 'publishClientSend', topic: `${TOPIC_PREFIX}${deviceId}/telemetry`, allow: true },
            { acltype: 'subscribePattern', topic: `${TOPIC_PREFIX}${deviceId}/#`, allow: true },
            { acltype: 'unsubscribePattern', topic: `${TOPIC_PREFIX}${deviceId}/#`, allow: true },
          ],
        },
        { command: 'createClient', username: deviceId, password: token, clientid: deviceId, roles: [{ rolename: role }] },
      ]);
      if (!created?.error) return;
      if (!/already exists/i.test(created.error)) throw new AppError(503, `Le broker MQTT a refusé le jeton : ${created.error}.`);
      // A new token: the broker closes the connections opened with the previous one.
      await run([
        { command: 'setClientPassword', username: deviceId, password: token },
        { command: 'enableClient', username: deviceId },
      ]);
    },
    async suspend(deviceId) {
      await run([{ command: 'disableClient', username: deviceId }], /not found/i);
    },
    async resume(deviceId) {
      await run([{ command: 'enableClient', username: deviceId }], /not found/i);
    },
    async remove(deviceIds) {
      for (let start = 0; start < deviceIds.length; start += 100) {
        const ids = deviceIds.slice(start, start + 100);
        await run(
          ids.flatMap((id) => [
            { command: 'deleteClient', username: id },
            { command: 'deleteRole', rolename: deviceRole(id) },
          ]),
          /not found/i,
        );
      }
    },
  };

  return {
    access,
    /**
     * Vigie's own account gets the rights it needs beside the plugin's `admin` role: consuming
     * every device's telemetry, and writing on the devices' errors topics.
     */
    async prepare(username: string): Promise<void> {
      await run(
        [
          {
            command: 'createRole',
            rolename: SERVICE_ROLE,
            acls: [
              { acltype: 'subscribePattern', topic: `${TOPIC_PREFIX}+/telemetry`, allow: true },
              { acltype: 'publishClientReceive', topic: `${TOPIC_PREFIX}+/telemetry`, allow: true },
              { acltype: 'publishClientSend', topic: `${TOPIC_PREFIX}+/errors`, allow: true },
            ],
          },
        ],
        /already exists/i,
      );
      const hasRole = async () => {
        const [answer] = await run([{ command: 'getClient', username }]);
        const roles = (answer?.data as { client?: { roles?: { rolename: string }[] } } | undefined)?.client?.roles ?? [];
        return roles.some((role) => role.rolename === SERVICE_ROLE);
      };
      if (await hasRole()) return;
      // A new role closes the account's connections, this one included, before any answer: the
      // role is checked again once it has reconnected. Only the first instance ever does this.
      const reconnected = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(unavailable()), COMMAND_TIMEOUT_MS * 2);
        client.once('connect', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      client.publish(CONTROL_TOPIC, JSON.stringify({ commands: [{ command: 'addClientRole', username, rolename: SERVICE_ROLE }] }), {
        qos: 1,
      });
      await reconnected;
      subscribed = null;
      if (!(await hasRole())) throw new AppError(503, `Le broker MQTT n’a pas donné le rôle ${SERVICE_ROLE} au compte ${username}.`);
    },
    close() {
      for (const waiting of pending.values()) waiting.reject(unavailable());
      pending.clear();
    },
  };
}
