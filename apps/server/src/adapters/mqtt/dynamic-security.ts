import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { AppError } from '../../errors.ts';
import type { DeviceAccess } from '../../modules/devices/credential-service.ts';
import { TOPIC_PREFIX } from './telemetry-message.ts';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const COMMAND_TIMEOUT_MS = 5_000;
/** Sendings of one request whose connection closed before its answer; a broker that does not answer is not asked again. */
const MAX_SENDINGS = 4;
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
interface Waiting {
  /** Published on the current connection: its answer is lost if that connection closes. */
  sent: boolean;
  resolve: (responses: Response[]) => void;
  reject: (error: Error) => void;
}

const unavailable = () => new AppError(503, 'Le broker MQTT ne répond pas : réessayez dans un instant.');

/** The connection closed between a request and its answer: the broker may or may not have applied it. */
class LostAnswer extends Error {}

/** A device's own role: its topics and nothing else (Mosquitto 2.0 has no `%u` in subscription patterns). */
const deviceRole = (deviceId: string) => `vigie-device-${deviceId}`;

/**
 * Mosquitto's dynamic-security plugin, driven over its `$CONTROL` topic: a device's account
 * (user name = device id, password = its token, client id = device id) and its own role, which
 * allows publishing its telemetry and subscribing under `vigie/devices/<id>/`, nothing more. A new
 * password or a disabled account closes the device's open connections in the broker at once.
 */
export function createDynamicSecurity(client: MqttClient, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
  const pending = new Map<string, Waiting>();
  /** Called once the response topic is subscribed on the current connection. */
  const waitingForSubscription = new Set<() => void>();
  let subscribed = false;
  let subscribing = false;
  let closed = false;

  // Every connection is a clean session: the response topic is subscribed again on each one,
  // before any request is published on it (its answer would otherwise go to no one).
  const subscribe = () => {
    subscribing = true;
    client.subscribe(RESPONSE_TOPIC, { qos: 1 }, (error) => {
      subscribing = false;
      // A connection already gone subscribes on the next one.
      if (!client.connected) return;
      if (error) {
        // Refused (an account that does not administer the plugin): said now rather than at each timeout.
        const refused = new AppError(503, `Le broker MQTT refuse l’abonnement aux réponses de dynamic-security : ${error.message}.`);
        for (const waiting of pending.values()) if (!waiting.sent) waiting.reject(refused);
        return;
      }
      subscribed = true;
      for (const resume of waitingForSubscription) resume();
      waitingForSubscription.clear();
    });
  };
  if (client.connected) subscribe();
  client.on('connect', subscribe);
  // The broker closes this connection when the account changes (another instance adding Vigie's
  // role does), or when it goes away: requests sent on it are sent again on the next one.
  client.on('close', () => {
    subscribed = false;
    subscribing = false;
    for (const [id, waiting] of pending) {
      if (!waiting.sent) continue;
      pending.delete(id);
      waiting.reject(new LostAnswer());
    }
  });

  client.on('message', (topic, payload) => {
    if (topic !== RESPONSE_TOPIC) return;
    let responses: Response[];
    try {
      responses = (JSON.parse(payload.toString('utf8')) as { responses?: Response[] }).responses ?? [];
    } catch {
      return;
    }
    // One request carries one correlation id on each of its commands; every instance sharing the
    // account receives every answer, and keeps only its own.
    const id = responses[0]?.correlationData;
    const waiting = id ? pending.get(id) : undefined;
    if (!id || !waiting) return;
    pending.delete(id);
    waiting.resolve(responses);
  });

  /**
   * One sending of the commands, in one message, once the response topic is subscribed on a live
   * connection; the broker answers them in order. At QoS 0: a message cut with its connection is
   * sent again here, under a new correlation id, rather than replayed by the client on reconnection
   * ahead of the subscription.
   */
  function sendOnce(commands: Command[]): Promise<Response[]> {
    const id = randomUUID();
    return new Promise<Response[]>((resolve, reject) => {
      const publish = () => {
        const waiting = pending.get(id);
        if (!waiting) return;
        waiting.sent = true;
        client.publish(CONTROL_TOPIC, JSON.stringify({ commands: commands.map((command) => ({ ...command, correlationData: id })) }), {
          qos: 0,
        });
      };
      const timer = setTimeout(() => settle(() => reject(unavailable())), timeoutMs);
      timer.unref();
      const settle = (then: () => void) => {
        clearTimeout(timer);
        pending.delete(id);
        waitingForSubscription.delete(publish);
        then();
      };
      pending.set(id, {
        sent: false,
        resolve: (responses) => settle(() => resolve(responses)),
        reject: (error) => settle(() => reject(error)),
      });
      if (subscribed && client.connected) return publish();
      waitingForSubscription.add(publish);
      if (client.connected && !subscribing && !subscribed) subscribe();
    });
  }

  /** Sends the commands, again when their connection closed before the answer (each command may be applied twice). */
  async function send(commands: Command[]): Promise<Response[]> {
    for (let sending = 1; ; sending += 1) {
      try {
        return await sendOnce(commands);
      } catch (error) {
        if (!(error instanceof LostAnswer)) throw error;
        if (closed || sending >= MAX_SENDINGS) throw unavailable();
      }
    }
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
      // A new role closes every connection of the account, this one and other instances' included,
      // usually before its answer: the request is then sent again once reconnected, and refused as
      // already done. Only the answer to the check that follows tells whether the role is there.
      await send([{ command: 'addClientRole', username, rolename: SERVICE_ROLE }]);
      if (!(await hasRole())) throw new AppError(503, `Le broker MQTT n’a pas donné le rôle ${SERVICE_ROLE} au compte ${username}.`);
    },
    close() {
      closed = true;
      for (const waiting of pending.values()) waiting.reject(unavailable());
      pending.clear();
      waitingForSubscription.clear();
    },
  };
}
