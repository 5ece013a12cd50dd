import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importFactoryBatch } from '../modules/devices/claiming-service.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind, tempDir } from '../test/test-app.ts';
import { makeBatch, readBatch, runFactoryDevices } from './factory.ts';

describe(`the simulator's factory devices on ${databaseKind}`, () => {
  let t: TestApp;
  let baseUrl: string;
  let owner: TestAccount;
  const dir = tempDir('vigie-batch-');

  beforeAll(async () => {
    t = await createTestApp();
    ({ baseUrl } = await t.listen());
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes a batch that imports, and labels that carry each QR code; its devices wait, then report once claimed', async () => {
    const made = await makeBatch(2, dir);
    expect(readBatch(path.join(dir, 'lot.csv'))).toEqual(made);
    const labels = fs.readFileSync(path.join(dir, 'etiquettes.html'), 'utf8');
    for (const device of made) expect(labels).toContain(device.serial);
    expect(labels.match(/<svg/g)).toHaveLength(2);
    expect((await importFactoryBatch(t.database.db, made)).added).toHaveLength(2);

    const lines: string[] = [];
    const post = async (url: string, body: unknown, token?: string) => {
      const response = await fetch(`${baseUrl}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const [first] = made;
    if (!first) throw new Error('empty batch');
    const stop = runFactoryDevices({ devices: [first], post, rate: 2, log: (line) => lines.push(line) });
    try {
      await vi.waitFor(() => expect(lines).toContain(`${first.serial} : en attente d’appairage…`), { timeout: 10_000 });
      const claimed = await t.app.inject({
        method: 'POST',
        url: '/api/devices/claim',
        headers: owner.auth,
        payload: { serial: first.serial, claimCode: first.claimCode },
      });
      expect(claimed.statusCode).toBe(201);
      const id = claimed.json<{ sensor: { id: string } }>().sensor.id;
      await vi.waitFor(
        async () => {
          const read = await t.app.inject({ url: `/api/sensor/${id}`, headers: owner.auth });
          expect(read.json<{ sensor: { latest: Record<string, unknown> } }>().sensor.latest).toHaveProperty('temperature');
        },
        { timeout: 15_000, interval: 250 },
      );
    } finally {
      stop();
    }
  });
});
