import { describe, expect, it } from 'vitest';
import { deviceEventSchema, provisionRequestSchema } from './telemetry.ts';

const device = {
  id: '0b5e7d5e-8a7c-4f0e-9d55-3c1d7a3b9f10',
  name: 'Frigo',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  serial: 'SN-1',
  model: null,
  status: 'online',
  lastSeenAt: '2026-11-22T10:00:00.000Z',
  latest: { temperature: { value: 4.2, ts: '2026-11-22T10:00:00.000Z' } },
  battery: 90,
  inactivityTimeoutSeconds: 600,
  siteId: '5c6d8e2a-1b3c-4d5e-8f9a-0b1c2d3e4f5a',
};

describe('live device events', () => {
  it('parses created, status and deleted events of both kinds', () => {
    expect(deviceEventSchema.safeParse({ action: 'created', kind: 'emitter', device }).success).toBe(true);
    expect(deviceEventSchema.safeParse({ action: 'status', kind: 'sensor', device: { ...device, emitterId: null } }).success).toBe(true);
    expect(deviceEventSchema.safeParse({ action: 'deleted', kind: 'sensor', deviceId: device.id }).success).toBe(true);
    expect(deviceEventSchema.safeParse({ action: 'exploded', kind: 'sensor', device }).success).toBe(false);
  });
});

describe('provisioning request', () => {
  it('needs a key, a serial and a kind; trims the serial', () => {
    expect(provisionRequestSchema.parse({ installationKey: 'k', serial: ' SN-1 ', kind: 'sensor' }).serial).toBe('SN-1');
    expect(provisionRequestSchema.safeParse({ installationKey: 'k', serial: 'SN-1', kind: 'fridge' }).success).toBe(false);
  });
});
