import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devEui, EM300_FRAME, ttsUplink } from '../../test/lorawan-uplinks.ts';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

/** A TS013 codec for the EM300-TH frame that loops without end on a frame starting with 0xff (its sample frame decodes). */
const loopingOnDemand = (label: string) => `// ${label}
function decodeUplink(input) {
  var b = input.bytes;
  if (b[0] === 0xff) { while (true) {} }
  var t = b[5] | (b[6] << 8);
  return { data: { temperature: (t > 0x7fff ? t - 0x10000 : t) / 10 } };
}`;
/** A frame that makes `loopingOnDemand` loop. */
const LOOP_FRAME = Buffer.from('ff' + EM300_FRAME.toString('hex').slice(2), 'hex');

interface Answer {
  status: number;
  body: { status?: string; readings?: number; message?: string };
  /** Its place among every answer received by the test (0 first). */
  order: number;
}

describe(`Pasted codecs shared fairly between organizations, over HTTP, on ${databaseKind}`, () => {
  let t: TestApp;
  let base: string;
  let clock = new Date();
  let answered = 0;
  const started = Date.now();

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(clock.getTime() + (Date.now() - started)) });
    ({ baseUrl: base } = await t.listen());
  });
  afterAll(() => t.close());

  async function http(method: string, url: string, options: { auth?: string; body?: unknown } = {}): Promise<Answer> {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(options.auth ? { authorization: options.auth } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    const order = answered;
    answered += 1;
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {}, order };
  }

  /** An organization with a The Things Stack integration, and a device per codec given (each pasted and saved). */
  async function organization(codecs: string[]) {
    const account: TestAccount = await t.createAccount();
    const created = await http('POST', '/api/integrations', { auth: account.auth.authorization, body: { type: 'tts', name: 'TTS' } });
    expect(created.status).toBe(201);
    const { id, secret } = (created.body as unknown as { integration: { id: string; secret: string } }).integration;
    const devices: { eui: string; sensorId: string }[] = [];
    for (const [index, source] of codecs.entries()) {
      const saved = await http('POST', '/api/lorawan/codecs', {
        auth: account.auth.authorization,
        body: { name: `Décodeur ${index + 1}`, source, payloadHex: EM300_FRAME.toString('hex'), fPort: 85 },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const codec = (saved.body as unknown as { codec: { id: string } }).codec.id;
      const eui = devEui();
      const registered = await http('POST', '/api/lorawan/devices', { auth: account.auth.authorization, body: { devEui: eui, codec } });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      devices.push({ eui, sensorId: (registered.body as unknown as { sensor: { id: string } }).sensor.id });
    }
    const uplink = (eui: string, fCnt: number, frame: Buffer) =>
      http('POST', `/api/integrations/${id}/events`, { auth: `Bearer ${secret}`, body: ttsUplink(eui, { fCnt, frame }) });
    const listed = async () =>
      (
        (await http('GET', '/api/lorawan/devices', { auth: account.auth.authorization })).body as unknown as {
          devices: { devEui: string; lastError: string | null }[];
        }
      ).devices;
    return { account, devices, uplink, listed };
  }

  async function storedCount(account: TestAccount, sensorId: string): Promise<number> {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const answer = await http('GET', `/api/sensor/${sensorId}/readings?key=temperature&from=${from}&to=${to}&buckets=2000`, {
      auth: account.auth.authorization,
    });
    return (answer.body as unknown as { readings: { count: number }[] }).readings.reduce((sum, bucket) => sum + bucket.count, 0);
  }

  it('stores and answers another organization’s uplinks while one floods looping codecs, and refuses the flood’s overflow with 200, listed on its devices', async () => {
    // Twenty devices with a codec each: no codec is stopped three times in a row, so nothing is suspended and the flood stays queued.
    const flooder = await organization(Array.from({ length: 20 }, (_, index) => loopingOnDemand(`boucle ${index}`)));
    const other = await organization([loopingOnDemand('rapide')]);
    const [mine] = other.devices;
    if (!mine) throw new Error('no device');
    // The codecs' threads started and ready.
    expect((await other.uplink(mine.eui, 1, EM300_FRAME)).body).toEqual({ status: 'stored', readings: 1 });

    // Sixty frames at once, three per device, each making its codec loop until it is stopped.
    const flood = flooder.devices.flatMap((device) => [1, 2, 3].map((fCnt) => flooder.uplink(device.eui, fCnt, LOOP_FRAME)));
    await Promise.race(flood);
    const mineAnswers: Answer[] = [];
    for (let fCnt = 2; fCnt <= 6; fCnt += 1) mineAnswers.push(await other.uplink(mine.eui, fCnt, EM300_FRAME));
    const floodAnswers = await Promise.all(flood);

    // The other organization's frames were all stored, and answered before the flood was through.
    for (const answer of mineAnswers) expect(answer.body).toEqual({ status: 'stored', readings: 1 });
    const lastOfFlood = Math.max(...floodAnswers.map((answer) => answer.order));
    expect(Math.max(...mineAnswers.map((answer) => answer.order))).toBeLessThan(lastOfFlood);
    expect(await storedCount(other.account, mine.sensorId)).toBe(6);

    // Every frame of the flood answered 200 (the network server keeps the integration); past the organization's queue, refused undecoded.
    expect(floodAnswers.map((answer) => answer.status)).toEqual(floodAnswers.map(() => 200));
    const statuses = floodAnswers.map((answer) => answer.body.status);
    expect(statuses.every((status) => status === 'undecoded' || status === 'refused')).toBe(true);
    const refused = statuses.filter((status) => status === 'refused').length;
    expect(refused).toBeGreaterThan(0);
    const reasons = (await flooder.listed()).map((device) => device.lastError);
    expect(reasons).toContain(
      'Trame refusée sans être décodée\u202F: 32 trames de l’organisation attendent déjà leur décodeur collé, trop lent pour le débit reçu.',
    );
    expect(reasons).toContain('Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.');
    expect((await other.listed()).map((device) => device.lastError)).toEqual([null]);
  }, 60_000);

  it('suspends a codec stopped three frames in a row: its frames refused with 200 and listed, until its time is served', async () => {
    const { devices, uplink, listed, account } = await organization([loopingOnDemand('suspendu')]);
    const [device] = devices;
    if (!device) throw new Error('no device');
    for (let fCnt = 1; fCnt <= 3; fCnt += 1)
      expect((await uplink(device.eui, fCnt, LOOP_FRAME)).body).toEqual({ status: 'undecoded', readings: 0 });
    // Suspended: even a frame it would decode is refused without being run.
    const refused = await uplink(device.eui, 4, EM300_FRAME);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ status: 'refused', readings: 0 });
    expect((await listed())[0]?.lastError).toBe(
      'Trame refusée sans être décodée\u202F: son décodeur a dépassé 50 ms sur 3 trames de suite, il est suspendu encore 1 min (puis essayé de nouveau).',
    );
    // A minute later it is tried again, and decodes.
    clock = new Date(clock.getTime() + 61_000);
    expect((await uplink(device.eui, 5, EM300_FRAME)).body).toEqual({ status: 'stored', readings: 1 });
    expect((await listed())[0]?.lastError).toBeNull();
    expect(await storedCount(account, device.sensorId)).toBe(1);
  }, 60_000);
});
