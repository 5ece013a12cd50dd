import { describe, expect, it } from 'vitest';
import { createDeviceListCache, type ListedDevice } from './device-list-cache.ts';

const ORG = 'org-1';
const device = (id: string, latest: ListedDevice['latest'] = {}): ListedDevice => ({
  record: {
    id,
    name: `Sonde ${id}`,
    serial: null,
    model: null,
    lastSeenAt: null,
    battery: null,
    inactivityTimeoutSeconds: 600,
    siteId: 'site',
    createdAt: new Date('2026-11-01T00:00:00Z'),
    updatedAt: new Date('2026-11-01T00:00:00Z'),
    emitterId: null,
  },
  latest,
});

describe('device list cache', () => {
  it('reads a list once, then answers from memory until a device of the organization changes', async () => {
    const cache = createDeviceListCache();
    let reads = 0;
    const read = async () => {
      reads += 1;
      return [device('a'), device('b')];
    };
    expect((await cache.list(ORG, read)).map((listed) => listed.record.id)).toEqual(['a', 'b']);
    await cache.list(ORG, read);
    expect(reads).toBe(1);
    cache.forget('another organization');
    await cache.list(ORG, read);
    expect(reads).toBe(1);
    cache.forget(ORG);
    await cache.list(ORG, read);
    expect(reads).toBe(2);
    cache.clear();
    await cache.list(ORG, read);
    expect(reads).toBe(3);
  });

  it('moves a listed device forward with its readings, the newer value winning', async () => {
    const cache = createDeviceListCache();
    await cache.list(ORG, async () => [device('a', { temperature: { value: 4, ts: '2026-11-26T08:00:00.000Z' } }), device('b')]);
    const at = new Date('2026-11-26T08:05:00Z');
    cache.heard(
      [{ deviceId: 'a', battery: 71, emitterId: 'e' }],
      [
        { deviceId: 'a', key: 'temperature', value: 5, ts: new Date('2026-11-26T08:04:00Z') },
        { deviceId: 'a', key: 'humidity', value: 60, ts: new Date('2026-11-26T08:04:00Z') },
      ],
      at,
    );
    // A value older than the one shown (sent late) does not take its place.
    cache.heard([], [{ deviceId: 'a', key: 'temperature', value: 9, ts: new Date('2026-11-26T07:00:00Z') }], at);
    const [a, b] = await cache.list(ORG, async () => []);
    expect(a?.record).toMatchObject({ lastSeenAt: at, battery: 71, emitterId: 'e' });
    expect(a?.latest).toEqual({
      temperature: { value: 5, ts: '2026-11-26T08:04:00.000Z' },
      humidity: { value: 60, ts: '2026-11-26T08:04:00.000Z' },
    });
    expect(b?.record.lastSeenAt).toBeNull();
  });

  it('applies what is heard while a list is read, and does not keep a read a change overtook', async () => {
    const cache = createDeviceListCache();
    let release!: (devices: ListedDevice[]) => void;
    const reading = cache.list(ORG, () => new Promise((resolve) => (release = resolve)));
    const at = new Date('2026-11-26T09:00:00Z');
    cache.heard([{ deviceId: 'a', battery: 40, emitterId: null }], [{ deviceId: 'a', key: 'temperature', value: 3, ts: at }], at);
    release([device('a')]);
    const [a] = await reading;
    expect(a?.record.battery).toBe(40);
    expect(a?.latest['temperature']?.value).toBe(3);
    // Kept: the next list comes from memory.
    expect((await cache.list(ORG, async () => []))[0]?.record.battery).toBe(40);

    cache.forget(ORG);
    let releaseAgain!: (devices: ListedDevice[]) => void;
    const overtaken = cache.list(ORG, () => new Promise((resolve) => (releaseAgain = resolve)));
    // A device renamed while the list was being read: that read is answered, not kept.
    cache.forget(ORG);
    releaseAgain([device('a')]);
    await overtaken;
    let reads = 0;
    await cache.list(ORG, async () => {
      reads += 1;
      return [device('a')];
    });
    expect(reads).toBe(1);
  });
});
