/**
 * A realistic shop for the screenshots and accessibility checks of the live screens: a gateway
 * and sensors installed through the device protocol, with weeks of history behind one of them.
 */
type Reading = { ts: number; values: Record<string, number> };

async function post(baseUrl: string, path: string, body: unknown, token?: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function history(baseUrl: string, token: string, readings: Reading[]): Promise<void> {
  const batches: Reading[][] = [];
  for (let start = 0; start < readings.length; start += 1000) batches.push(readings.slice(start, start + 1000));
  for (let index = 0; index < batches.length; index += 4) {
    await Promise.all(batches.slice(index, index + 4).map((batch) => post(baseUrl, '/api/devices/telemetry', batch, token)));
  }
}

export const GALLERY_FRIDGE = 'Vitrine réfrigérée n°1';
export const GALLERY_DAIRY = 'Vitrine crèmerie';
export const GALLERY_GATEWAY = 'Passerelle Lyon Part-Dieu';

export async function seedGallery(baseUrl: string, userToken: string): Promise<void> {
  const keyResponse = await fetch(`${baseUrl}/api/organization/installation-key`, { headers: { Authorization: `Bearer ${userToken}` } });
  const { installationKey } = (await keyResponse.json()) as { installationKey: string };
  const provision = (serial: string, kind: 'sensor' | 'emitter', name: string, model: string) =>
    post(baseUrl, '/api/devices/provision', { installationKey, serial, kind, name, model }) as Promise<{
      deviceId: string;
      accessToken: string;
    }>;

  const now = Date.now();
  const gateway = await provision('GW-LYON-01', 'emitter', GALLERY_GATEWAY, 'Vigie Gateway 2');
  await post(baseUrl, '/api/devices/telemetry', { values: { rssi: -61 } }, gateway.accessToken);

  // 30 days at one reading a minute (43 200 readings of two measures): the chart draws buckets.
  const fridge = await provision('TH-0001', 'sensor', GALLERY_FRIDGE, 'Vigie TH-1');
  const minute = 60_000;
  const readings: Reading[] = [];
  for (let ts = now - 30 * 24 * 60 * minute; ts <= now - minute; ts += minute) {
    const hour = new Date(ts).getHours();
    const cycle = Math.sin(ts / (47 * minute)) * 0.6;
    const doorPeak = hour >= 8 && hour <= 20 && Math.floor(ts / minute) % 97 === 0 ? 2.5 : 0;
    readings.push({
      ts,
      values: {
        temperature: Math.round((3.6 + cycle + doorPeak) * 100) / 100,
        humidity: Math.round(62 + Math.sin(ts / (300 * minute)) * 6),
      },
    });
  }
  readings.push({ ts: now - 20_000, values: { temperature: 3.8, humidity: 61 } });
  await history(baseUrl, fridge.accessToken, readings);
  await post(baseUrl, '/api/devices/telemetry', { values: { battery: 78 } }, fridge.accessToken);

  const counter = await provision('VC-0002', 'sensor', "Compteur d'entrée principale", 'Vigie Count');
  await post(baseUrl, '/api/devices/telemetry', { ts: now - 2 * minute, values: { visitors: 148, battery: 64 } }, counter.accessToken);
  const door = await provision('DR-0003', 'sensor', 'Porte de la réserve', 'Vigie Door');
  await post(baseUrl, '/api/devices/telemetry', { ts: now - 5 * minute, values: { open: 0, battery: 12 } }, door.accessToken);
  const co2 = await provision('CO-0004', 'sensor', 'Qualité de l’air caisse', 'Vigie Air');
  await post(baseUrl, '/api/devices/telemetry', { ts: now - 3 * 3600_000, values: { co2: 1240 } }, co2.accessToken);
  await provision('TH-0005', 'sensor', 'Congélateur surgelés', 'Vigie TH-1');

  // A dairy cabinet watched by the ≤ +4 °C preset that warmed to 13,1 °C and came back: an alert's
  // page to look at, resolved.
  const dairy = await provision('TH-0006', 'sensor', GALLERY_DAIRY, 'Vigie TH-1');
  const dairyHistory: Reading[] = [];
  for (let ts = now - 2 * 3600_000; ts <= now - minute; ts += 5 * minute) dairyHistory.push({ ts, values: { temperature: 3 } });
  await history(baseUrl, dairy.accessToken, dairyHistory);
  await post(
    baseUrl,
    '/api/alert-rules',
    { name: 'Crèmerie ≤ +4 °C', sensorId: dairy.deviceId, preset: 'chilled_very_perishable' },
    userToken,
  );
  for (const temperature of [12.5, 13.1, 3.4])
    await post(baseUrl, '/api/devices/telemetry', { values: { temperature } }, dairy.accessToken);
}
