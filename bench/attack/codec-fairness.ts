/**
 * Codec fairness — one organization floods its pasted codecs (20 frames a second, round twenty
 * devices with a codec each) with frames that make them loop until their time stops them; another organization's uplinks, decoded by a pasted codec of its own, are
 * timed before and during the flood, over HTTP, as The Things Stack posts them. Budget: the flood
 * adds ≤ 50 ms to the other's p99. Also checked: every frame of the flood answered 200, its
 * overflow refused (`refused`) and listed on its devices with the reason in French; the other's
 * frames all stored.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { devEui, EM300_FRAME, ttsUplink } from '../../apps/server/src/test/lorawan-uplinks.ts';
import { type Answer, call, ms, ok, percentile, Tally } from './support.ts';
import type { World } from './world.ts';

/** The added p99 allowed to another organization's uplinks. */
const BUDGET_MS = 50;

/** A TS013 codec of the EM300-TH frame that loops without end on a frame starting with 0xff; its sample frame decodes. */
const loopingOnDemand = (label: string) => `// ${label}
function decodeUplink(input) {
  var b = input.bytes;
  if (b[0] === 0xff) { while (true) {} }
  var t = b[5] | (b[6] << 8);
  return { data: { temperature: (t > 0x7fff ? t - 0x10000 : t) / 10 } };
}`;
const LOOP_FRAME = Buffer.from('ff' + EM300_FRAME.toString('hex').slice(2), 'hex');

interface Organization {
  token: string;
  integration: { id: string; secret: string };
  devices: { eui: string; sensorId: string }[];
}

async function organization(base: string, token: string, label: string, codecs: number): Promise<Organization> {
  const { integration } = await ok<{ integration: { id: string; secret: string } }>(base, 'POST', '/api/integrations', {
    token,
    body: { type: 'tts', name: `Réseau ${label}` },
  });
  const devices: Organization['devices'] = [];
  for (let index = 0; index < codecs; index += 1) {
    const { codec } = await ok<{ codec: { id: string } }>(base, 'POST', '/api/lorawan/codecs', {
      token,
      body: {
        name: `Décodeur ${label} ${index + 1}`,
        source: loopingOnDemand(`${label} ${index}`),
        payloadHex: EM300_FRAME.toString('hex'),
      },
    });
    const eui = devEui();
    const { sensor } = await ok<{ sensor: { id: string } }>(base, 'POST', '/api/lorawan/devices', {
      token,
      body: { devEui: eui, codec: codec.id },
    });
    devices.push({ eui, sensorId: sensor.id });
  }
  return { token, integration, devices };
}

const uplink = (base: string, org: Organization, eui: string, fCnt: number, frame: Buffer): Promise<Answer> =>
  call(base, 'POST', `/api/integrations/${org.integration.id}/events`, {
    headers: { authorization: `Bearer ${org.integration.secret}` },
    body: ttsUplink(eui, { fCnt, frame, devAddr: eui.slice(0, 8).toUpperCase() }),
  });

export async function codecFairness(w: World, short: boolean): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  // Twenty codecs: three stopped frames in a row suspend a codec, so the flood spreads over many to keep the queue full.
  const flooder = await organization(base, w.adminA.token, 'A', short ? 20 : 40);
  const other = await organization(base, w.adminB.token, 'B', 1);
  const mine = other.devices[0];
  if (!mine) throw new Error('aucun appareil pour B');
  let fCnt = 0;
  const otherAnswers: Answer[] = [];
  const timeOther = async () => {
    fCnt += 1;
    const answer = await uplink(base, other, mine.eui, fCnt, EM300_FRAME);
    otherAnswers.push(answer);
    return answer.ms;
  };

  // Alone: B's uplinks one after the other, 20 ms apart (the codec threads started by the first ones).
  for (let i = 0; i < 5; i += 1) await timeOther();
  const samples = short ? 150 : 300;
  // Half before the flood, half after it: a machine whose load drifts weighs on both sides alike.
  const alone: number[] = [];
  const timeAlone = async () => {
    for (let i = 0; i < samples / 2; i += 1) {
      alone.push(await timeOther());
      await delay(20);
    }
  };
  await timeAlone();

  // A's devices heard once (a frame they decode): their registrations are in memory, as for any device already reporting.
  await Promise.all(flooder.devices.map((device) => uplink(base, flooder, device.eui, 1, EM300_FRAME)));

  // The flood: a frame every 50 ms (20 a second, more than a thread stopping each at 50 ms can take),
  // round the devices, each making its codec loop; B's uplinks timed meanwhile.
  const floodAnswers: Promise<Answer>[] = [];
  let flooding = true;
  const flood = (async () => {
    for (let n = 0; flooding; n += 1) {
      const device = flooder.devices[n % flooder.devices.length];
      if (device) floodAnswers.push(uplink(base, flooder, device.eui, 2 + Math.floor(n / flooder.devices.length), LOOP_FRAME));
      await delay(50);
    }
  })();
  const during: number[] = [];
  while (during.length < samples) {
    during.push(await timeOther());
    await delay(20);
  }
  flooding = false;
  await flood;
  const flooded = await Promise.all(floodAnswers);
  await timeAlone();

  const p99Alone = percentile(alone, 99);
  const p99During = percentile(during, 99);
  const added = p99During - p99Alone;
  tally.figure(
    `p50 / p99 des trames de B seule · pendant le déluge de A (${samples} trames)`,
    `${ms(percentile(alone, 50))} / ${ms(p99Alone)} · ${ms(percentile(during, 50))} / ${ms(p99During)}`,
    true,
  );
  tally.figure(`p99 ajouté aux trames de B par les décodeurs en boucle de A (≤ ${BUDGET_MS} ms)`, ms(added), added <= BUDGET_MS);

  const notStored = otherAnswers.filter((answer) => (answer.body as { status?: string } | undefined)?.status !== 'stored');
  tally.check(notStored.length === 0, () => `${notStored.length} trames de B non enregistrées : ${notStored[0]?.text.slice(0, 160)}`);
  const readings = await ok<{ readings: { count: number }[] }>(
    base,
    'GET',
    `/api/sensor/${mine.sensorId}/readings?key=temperature&from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}&buckets=2000`,
    { token: other.token },
  );
  const count = readings.readings.reduce((sum, bucket) => sum + bucket.count, 0);
  tally.check(count === otherAnswers.length, () => `${count} lectures de B enregistrées pour ${otherAnswers.length} trames acquittées`);

  const odd = flooded.filter(
    (answer) => answer.status !== 200 || !['undecoded', 'refused'].includes((answer.body as { status?: string } | undefined)?.status ?? ''),
  );
  tally.check(odd.length === 0, () => `${odd.length} trames du déluge mal répondues : ${odd[0]?.status} ${odd[0]?.text.slice(0, 160)}`);
  const refused = flooded.filter((answer) => (answer.body as { status?: string } | undefined)?.status === 'refused').length;
  tally.check(refused > 0, () => `aucune des ${flooded.length} trames du déluge refusée : la file de A n’est pas bornée`);
  tally.figure(`trames du déluge de A : refusées / décodées (arrêtées)`, `${refused} / ${flooded.length - refused}`, true);
  const { devices } = await ok<{ devices: { lastError: string | null }[] }>(base, 'GET', '/api/lorawan/devices', { token: flooder.token });
  const listed = devices.filter((device) => device.lastError?.startsWith('Trame refusée sans être décodée\u202F: ')).length;
  tally.check(listed > 0, () => `aucun appareil de A ne dit pourquoi ses trames sont refusées`);
  return tally;
}
