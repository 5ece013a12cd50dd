import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { deviceKeys, type Device } from './device-kinds';
import { applyLiveEvent, applyLiveEvents } from './apply-live-event';

const owner = 'u1';
const sensor = (id: string, name: string): Device => ({
  id,
  name,
  createdAt: '2024-06-01T10:00:00.000Z',
  updatedAt: '2024-06-01T10:00:00.000Z',
  serial: null,
  model: null,
  status: 'never',
  lastSeenAt: null,
  latest: {},
  battery: null,
  inactivityTimeoutSeconds: 600,
  siteId: '33333333-3333-4333-8333-333333333333',
  emitterId: null,
});
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

function setup() {
  const client = new QueryClient();
  client.setQueryData(deviceKeys.list('sensor', owner), [sensor(A, 'Frigo')]);
  client.setQueryData(deviceKeys.detail('sensor', owner, A), sensor(A, 'Frigo'));
  return client;
}

describe('applyLiveEvent', () => {
  it('applies a reading to the list and the detail in place', () => {
    const client = setup();
    const values = { temperature: { value: 4.2, ts: '2024-06-01T12:00:00.000Z' } };
    const data = JSON.stringify({ deviceId: A, kind: 'sensor', lastSeenAt: '2024-06-01T12:00:00.000Z', battery: 55, values });
    applyLiveEvent(client, owner, { id: '1', event: 'reading', data });
    const [listed] = client.getQueryData<Device[]>(deviceKeys.list('sensor', owner)) ?? [];
    expect(listed).toMatchObject({ latest: values, battery: 55, status: 'online', lastSeenAt: '2024-06-01T12:00:00.000Z' });
    expect(client.getQueryData<Device>(deviceKeys.detail('sensor', owner, A))?.latest).toEqual(values);
  });

  it('adds a created device once, even when it arrives twice, and removes a deleted one', () => {
    const client = setup();
    const created = JSON.stringify({ action: 'created', kind: 'sensor', device: sensor(B, 'Porte') });
    applyLiveEvent(client, owner, { id: '2', event: 'device', data: created });
    applyLiveEvent(client, owner, { id: '2', event: 'device', data: created });
    expect(client.getQueryData<Device[]>(deviceKeys.list('sensor', owner))?.map((d) => d.name)).toEqual(['Frigo', 'Porte']);

    applyLiveEvent(client, owner, { id: '3', event: 'device', data: JSON.stringify({ action: 'deleted', kind: 'sensor', deviceId: A }) });
    expect(client.getQueryData<Device[]>(deviceKeys.list('sensor', owner))?.map((d) => d.name)).toEqual(['Porte']);
  });

  it('ignores malformed events', () => {
    const client = setup();
    applyLiveEvent(client, owner, { id: '4', event: 'reading', data: '{not json' });
    applyLiveEvent(client, owner, { id: '5', event: 'device', data: '{"action":"created"}' });
    expect(client.getQueryData<Device[]>(deviceKeys.list('sensor', owner))).toHaveLength(1);
  });

  it('keeps events that arrive while the list is loading, though the answer predates them', async () => {
    const client = new QueryClient();
    let answer!: (list: Device[]) => void;
    const loading = client.fetchQuery({
      queryKey: deviceKeys.list('sensor', owner),
      queryFn: () => new Promise<Device[]>((resolve) => (answer = resolve)),
    });
    const created = JSON.stringify({ action: 'created', kind: 'sensor', device: sensor(B, 'Porte') });
    applyLiveEvent(client, owner, { id: '6', event: 'device', data: created });
    const values = { temperature: { value: 3.1, ts: '2024-06-01T12:00:00.000Z' } };
    const reading = JSON.stringify({ deviceId: A, kind: 'sensor', lastSeenAt: '2024-06-01T12:00:00.000Z', values });
    applyLiveEvent(client, owner, { id: '7', event: 'reading', data: reading });

    // The server answered with what it had before both events.
    answer([sensor(A, 'Frigo')]);
    await loading;
    await vi.waitFor(() => {
      const list = client.getQueryData<Device[]>(deviceKeys.list('sensor', owner)) ?? [];
      expect(list.map((d) => d.name)).toEqual(['Frigo', 'Porte']);
      expect(list[0]?.latest).toEqual(values);
    });

    // Once settled, later fetches are not rewritten.
    await client.fetchQuery({ queryKey: deviceKeys.list('sensor', owner), queryFn: async () => [sensor(B, 'Porte')], staleTime: 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.getQueryData<Device[]>(deviceKeys.list('sensor', owner))?.map((d) => d.name)).toEqual(['Porte']);
  });

  it('does not let an older copy of a device roll its values back', () => {
    const client = setup();
    const values = { temperature: { value: 4.2, ts: '2024-06-01T12:00:00.000Z' } };
    applyLiveEvent(client, owner, {
      id: '8',
      event: 'reading',
      data: JSON.stringify({ deviceId: A, kind: 'sensor', lastSeenAt: '2024-06-01T12:00:00.000Z', values }),
    });
    const renamed = { ...sensor(A, 'Frigo 2'), latest: { temperature: { value: 9, ts: '2024-06-01T11:00:00.000Z' } } };
    applyLiveEvent(client, owner, {
      id: '9',
      event: 'device',
      data: JSON.stringify({ action: 'updated', kind: 'sensor', device: renamed }),
    });
    const [listed] = client.getQueryData<Device[]>(deviceKeys.list('sensor', owner)) ?? [];
    expect(listed).toMatchObject({ name: 'Frigo 2', latest: values, lastSeenAt: '2024-06-01T12:00:00.000Z' });
  });

  it('applies a batch in its order: readings together, the newest value winning, device events in their place', () => {
    const client = setup();
    client.setQueryData(deviceKeys.list('sensor', owner), [sensor(A, 'Frigo'), sensor(B, 'Porte')]);
    let listCopies = 0;
    const unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success' && event.query.queryKey.includes('list')) listCopies += 1;
    });
    const reading = (id: string, deviceId: string, value: number, minute: number) => ({
      id,
      event: 'reading',
      data: JSON.stringify({
        deviceId,
        kind: 'sensor',
        lastSeenAt: `2024-06-01T12:0${minute}:00.000Z`,
        values: { temperature: { value, ts: `2024-06-01T12:0${minute}:00.000Z` } },
      }),
    });
    applyLiveEvents(client, owner, [
      reading('1', A, 4.1, 1),
      reading('2', B, 7, 1),
      reading('3', A, 4.3, 3),
      // Out of order on the wire: an older value does not overwrite a newer one.
      reading('4', A, 4.2, 2),
      { id: '5', event: 'device', data: JSON.stringify({ action: 'deleted', kind: 'sensor', deviceId: B }) },
      // A reading of a device already gone does not bring it back.
      reading('6', B, 8, 4),
    ]);
    unsubscribe();
    const list = client.getQueryData<Device[]>(deviceKeys.list('sensor', owner)) ?? [];
    expect(list.map((device) => device.name)).toEqual(['Frigo']);
    expect(list[0]?.latest['temperature']?.value).toBe(4.3);
    expect(client.getQueryData<Device>(deviceKeys.detail('sensor', owner, A))?.latest['temperature']?.value).toBe(4.3);
    // Three readings before the deletion make one copy of the list, the deletion another, the last reading a third.
    expect(listCopies).toBe(3);
  });
});
