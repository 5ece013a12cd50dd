import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '@/lib/api-client';
import { jsonResponse } from '@/testing/render';
import { createDevice } from './create-device';
import { deleteDevice } from './delete-device';
import { getDevice } from './get-device';
import { getDevices } from './get-devices';
import { updateDevice } from './update-device';

const sensor = {
  id: '0b4c6a3e-1f2d-4e5a-9b8c-7d6e5f4a3b2c',
  name: 'Vitrine',
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:00.000Z',
};

let calls: { url: string; method: string; body: unknown; auth: string | null }[];
let answer: Response;

beforeEach(() => {
  setAccessToken('tok');
  calls = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({
      url,
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      auth: new Headers(init?.headers).get('Authorization'),
    });
    return answer;
  });
});

afterEach(() => {
  setAccessToken(null);
  vi.unstubAllGlobals();
});

describe('device endpoints', () => {
  it('GET /api/sensor reads the sensors list', async () => {
    answer = jsonResponse(200, { sensors: [sensor] });
    await expect(getDevices({ kind: 'sensor' })).resolves.toEqual([sensor]);
    expect(calls[0]).toEqual({ url: '/api/sensor', method: 'GET', body: undefined, auth: 'Bearer tok' });
  });

  it("answers 'Error loading data' when the list is missing", async () => {
    answer = jsonResponse(200, { devices: [] });
    await expect(getDevices({ kind: 'emitter' })).rejects.toThrow('Error loading data');
  });

  it('GET /api/emitter/:id reads the emitter', async () => {
    answer = jsonResponse(200, { emitter: sensor });
    await expect(getDevice({ kind: 'emitter', id: sensor.id })).resolves.toEqual(sensor);
    expect(calls[0]?.url).toBe(`/api/emitter/${sensor.id}`);
  });

  it('POST /api/sensor sends the name and reads the sensor', async () => {
    answer = jsonResponse(201, { sensor: { ...sensor, name: 'New sensor' } });
    await expect(createDevice({ kind: 'sensor', name: 'New sensor' })).resolves.toMatchObject({ name: 'New sensor' });
    expect(calls[0]).toMatchObject({ url: '/api/sensor', method: 'POST', body: { name: 'New sensor' } });
  });

  it('PUT /api/sensor/:id sends the changes and reads the sensor', async () => {
    answer = jsonResponse(200, { sensor: { ...sensor, name: 'Rayon frais' } });
    await expect(updateDevice({ kind: 'sensor', id: sensor.id, changes: { name: 'Rayon frais' } })).resolves.toMatchObject({
      name: 'Rayon frais',
    });
    expect(calls[0]).toMatchObject({ url: `/api/sensor/${sensor.id}`, method: 'PUT', body: { name: 'Rayon frais' } });
  });

  it('DELETE /api/emitter/:id reads nothing', async () => {
    answer = new Response(null, { status: 204 });
    await expect(deleteDevice({ kind: 'emitter', id: sensor.id })).resolves.toBeUndefined();
    expect(calls[0]).toMatchObject({ url: `/api/emitter/${sensor.id}`, method: 'DELETE' });
  });

  it("passes the server's message on", async () => {
    answer = jsonResponse(400, { message: 'Le nom est obligatoire.' });
    await expect(updateDevice({ kind: 'emitter', id: sensor.id, changes: { name: ' ' } })).rejects.toThrow('Le nom est obligatoire.');
  });
});
