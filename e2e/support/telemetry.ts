import type { APIRequestContext } from '@playwright/test';
import mqtt from 'mqtt';

export type Provisioned = { deviceId: string; kind: 'sensor' | 'emitter'; accessToken: string };
export type Reading = { ts?: number | string; values: Record<string, number | boolean>; sensor?: string };

/** Calls of the device protocol (docs/protocole-appareils.md), through plain HTTP. */
export class DeviceProtocol {
  constructor(
    private readonly request: APIRequestContext,
    private readonly userToken: string,
  ) {}

  async installationKey(): Promise<string> {
    const response = await this.request.get('/api/organization/installation-key', {
      headers: { Authorization: `Bearer ${this.userToken}` },
    });
    if (response.status() !== 200) throw new Error(`installation key: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { installationKey: string }).installationKey;
  }

  async provision(
    device: { serial: string; kind: 'sensor' | 'emitter'; name?: string; model?: string },
    key?: string,
  ): Promise<Provisioned> {
    const installationKey = key ?? (await this.installationKey());
    const response = await this.request.post('/api/devices/provision', { data: { installationKey, ...device } });
    if (response.status() !== 201) throw new Error(`provision: ${response.status()} ${await response.text()}`);
    return (await response.json()) as Provisioned;
  }

  async mqttPort(): Promise<number> {
    const response = await this.request.get('/api/devices/protocol');
    const port = ((await response.json()) as { mqttPort: number | null }).mqttPort;
    if (!port) throw new Error('MQTT is disabled on the e2e server.');
    return port;
  }

  async update(kind: 'sensor' | 'emitter', id: string, changes: Record<string, unknown>): Promise<void> {
    const response = await this.request.put(`/api/${kind}/${id}`, {
      headers: { Authorization: `Bearer ${this.userToken}` },
      data: changes,
    });
    if (response.status() !== 200) throw new Error(`update: ${response.status()} ${await response.text()}`);
  }
}

/** POST /api/devices/telemetry with a device token; resolves with the HTTP status. */
export async function sendTelemetry(
  request: APIRequestContext,
  deviceToken: string,
  body: Reading | Reading[] | Record<string, number>,
): Promise<number> {
  const response = await request.post('/api/devices/telemetry', { headers: { Authorization: `Bearer ${deviceToken}` }, data: body });
  return response.status();
}

/** Sends many readings in batches of 1 000 (the protocol's limit per message), a few at a time. */
export async function sendHistory(request: APIRequestContext, deviceToken: string, readings: Reading[]): Promise<void> {
  const batches: Reading[][] = [];
  for (let start = 0; start < readings.length; start += 1000) batches.push(readings.slice(start, start + 1000));
  for (let index = 0; index < batches.length; index += 4) {
    const statuses = await Promise.all(batches.slice(index, index + 4).map((batch) => sendTelemetry(request, deviceToken, batch)));
    if (statuses.some((status) => status !== 202)) throw new Error(`telemetry history: ${statuses.join(', ')}`);
  }
}

/** A device's MQTT session: username = device id, password = token, QoS 1 publications. */
export async function connectDevice(host: string, port: number, deviceId: string, token: string) {
  const client = await mqtt.connectAsync(`mqtt://${host}:${port}`, {
    username: deviceId,
    password: token,
    clientId: `${deviceId}-e2e`,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  return {
    publish: (reading: Reading) => client.publishAsync(`vigie/devices/${deviceId}/telemetry`, JSON.stringify(reading), { qos: 1 }),
    close: () => client.endAsync(),
  };
}

/** A unique serial for this run: the database may be shared with other runs. */
export function uniqueSerial(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
}
