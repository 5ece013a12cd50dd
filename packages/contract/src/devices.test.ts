import { describe, expect, it } from 'vitest';
import { createDeviceRequestSchema, updateDeviceRequestSchema } from './devices.ts';

describe('device request schemas', () => {
  it('trims the name and keeps everything else as typed', () => {
    expect(createDeviceRequestSchema.parse({ name: '  <b>Frigo</b> 🧊 ' })).toEqual({ name: '<b>Frigo</b> 🧊' });
  });

  it('counts an emoji as one character against the 100-character limit', () => {
    expect(createDeviceRequestSchema.safeParse({ name: '🧊'.repeat(100) }).success).toBe(true);
    expect(createDeviceRequestSchema.safeParse({ name: '🧊'.repeat(101) }).success).toBe(false);
  });

  it('refuses unknown fields and an empty update', () => {
    expect(createDeviceRequestSchema.safeParse({ name: 'ok', extra: 1 }).success).toBe(false);
    const empty = updateDeviceRequestSchema.safeParse({});
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe('Indiquez au moins un champ à modifier (name, inactivityTimeoutSeconds ou siteId).');
  });
});
