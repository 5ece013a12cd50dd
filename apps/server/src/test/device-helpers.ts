import type { DeviceKind } from '@vigie/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { TestAccount, TestApp } from './test-app.ts';

export interface ProvisionedDevice {
  deviceId: string;
  kind: DeviceKind;
  accessToken: string;
  serial: string;
}

export async function installationKey(t: TestApp, account: TestAccount): Promise<string> {
  const response = await t.app.inject({ url: '/api/organization/installation-key', headers: account.auth });
  return response.json<{ installationKey: string }>().installationKey;
}

/** Installs a device the way a real one does: installation key and serial only. */
export async function provision(
  t: TestApp,
  account: TestAccount,
  kind: DeviceKind,
  serial = `SN-${Math.random().toString(36).slice(2, 10)}`,
): Promise<ProvisionedDevice> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/devices/provision',
    payload: { installationKey: await installationKey(t, account), serial, kind },
  });
  if (response.statusCode !== 201) throw new Error(`provision ${response.statusCode}: ${response.body}`);
  return { ...response.json<{ deviceId: string; kind: DeviceKind; accessToken: string }>(), serial };
}

export function sendTelemetry(t: TestApp, token: string, payload: unknown, contentType = 'application/json') {
  return t.app.inject({
    method: 'POST',
    url: '/api/devices/telemetry',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

export async function readingsOf(t: TestApp, account: TestAccount, sensorId: string, query = '') {
  const response = await t.app.inject({ url: `/api/sensor/${sensorId}/readings?${query}`, headers: account.auth });
  return response;
}

export { countRows } from './test-dal.ts';

/** Connects as the device over MQTT, as a real one does: its id as client id and user name, its token as password. */
export function connectDevice(mqttUrl: string, device: Pick<ProvisionedDevice, 'deviceId' | 'accessToken'>): Promise<MqttClient> {
  return mqtt.connectAsync(mqttUrl, {
    clientId: device.deviceId,
    username: device.deviceId,
    password: device.accessToken,
    reconnectPeriod: 0,
  });
}
