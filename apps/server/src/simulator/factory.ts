import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { claimUri, endpoints, type FactoryDevice, type ProvisionResponse } from '@vigie/contract';
import QRCode from 'qrcode';
import { parseFactoryBatch } from '../cli/factory-batch.ts';
import { measure, type SensorProfile, type SimulatedSensor } from './shop-model.ts';

/** Letters and digits a person cannot misread on a label: no 0/O, 1/I/L. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const MODELS: { model: string; profile: SensorProfile }[] = [
  { model: 'Vigie Froid T1', profile: 'fridge' },
  { model: 'Vigie Froid T1', profile: 'fridge' },
  { model: 'Vigie Congélation T2', profile: 'freezer' },
  { model: 'Vigie Contact C1', profile: 'door' },
];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The code as printed: groups of four. */
export const printedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/**
 * A maker's new batch: `DIR/lot.csv` for `npm run devices:import`, and `DIR/etiquettes.html`, the
 * labels (QR code, serial and code) to print or to show on a screen and scan with a phone.
 */
export async function makeBatch(count: number, dir: string): Promise<FactoryDevice[]> {
  const devices: FactoryDevice[] = Array.from({ length: count }, (_, index) => {
    const { model } = MODELS[index % MODELS.length] as (typeof MODELS)[number];
    return {
      serial: `VIG-${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
      kind: 'sensor',
      model,
      claimCode: Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)]).join(''),
    };
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'lot.csv'),
    `serial;kind;model;claimCode\n${devices.map((d) => `${d.serial};${d.kind};${d.model ?? ''};${d.claimCode}`).join('\n')}\n`,
  );
  const labels = await Promise.all(
    devices.map(async (device) => {
      const svg = await QRCode.toString(claimUri(device.serial, device.claimCode), { type: 'svg', margin: 2 });
      return `<figure>${svg}<figcaption><strong>${escapeHtml(device.model ?? '')}</strong><br>N° ${escapeHtml(device.serial)}<br>Code ${escapeHtml(printedCode(device.claimCode))}</figcaption></figure>`;
    }),
  );
  writeFileSync(
    path.join(dir, 'etiquettes.html'),
    `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Étiquettes Vigie</title>
<style>body{font-family:sans-serif;display:flex;flex-wrap:wrap;gap:24px;padding:24px}figure{width:220px;margin:0;padding:12px;border:1px dashed #999;text-align:center}svg{width:100%;height:auto}figcaption{font-size:14px;line-height:1.5}</style>
${labels.join('\n')}</html>\n`,
  );
  return devices;
}

/** Prints a label's QR code in the terminal, to scan it from the screen. */
export async function terminalLabel(device: FactoryDevice): Promise<string> {
  const qr = await QRCode.toString(claimUri(device.serial, device.claimCode), { type: 'terminal', small: true });
  return `${qr}${device.model ?? ''} · N° ${device.serial} · code ${printedCode(device.claimCode)}`;
}

function profileOf(device: FactoryDevice): SensorProfile {
  const model = (device.model ?? '').toLowerCase();
  if (/cong[eé]l|freez|surgel/.test(model)) return 'freezer';
  if (/contact|porte|door/.test(model)) return 'door';
  if (/flux|passage|footfall/.test(model)) return 'footfall';
  if (/ambiance|room/.test(model)) return 'room';
  if (/air|co2/.test(model)) return 'air';
  return 'fridge';
}

export function readBatch(file: string): FactoryDevice[] {
  const { devices, errors } = parseFactoryBatch(readFileSync(file, 'utf8'));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return devices;
}

type Post = (path: string, body: unknown, token?: string) => Promise<{ status: number; body: unknown }>;

/**
 * Factory devices switched on: each asks for its token every 3 s while nobody has claimed it,
 * then sends its own readings over HTTP, as a device without a transmitter does.
 */
export function runFactoryDevices(options: {
  devices: FactoryDevice[];
  post: Post;
  rate: number;
  log: (line: string) => void;
}): () => void {
  const { devices, post, rate, log } = options;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;
  const later = (ms: number, run: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) void run();
    }, ms);
    timers.add(timer);
  };
  const periodMs = 1000 / rate;
  const inactivityTimeoutSeconds = Math.max(30, Math.ceil(10 / rate));

  for (const device of devices) {
    const sensor: SimulatedSensor = { serial: device.serial, name: device.serial, model: device.model ?? '', profile: profileOf(device) };
    let announced = false;
    const ask = async () => {
      const answer = await post(endpoints.devices.provision.path, {
        serial: device.serial,
        claimCode: device.claimCode,
        inactivityTimeoutSeconds,
      }).catch((error: Error) => ({ status: 0, body: { message: error.message } }));
      if (answer.status === 201) {
        log(`${device.serial} : appairé, envoi des mesures.`);
        const { accessToken } = answer.body as ProvisionResponse;
        const send = async () => {
          const t = Date.now();
          const sent = await post(
            endpoints.devices.telemetry.path,
            { id: `${device.serial}-${t}`, ts: t, values: measure(sensor, t, periodMs / 1000) },
            accessToken,
          ).catch(() => ({ status: 0, body: null }));
          if (sent.status === 401) {
            log(`${device.serial} : jeton refusé (appareil supprimé ?), nouvelle demande d’appairage.`);
            later(3000, ask);
            return;
          }
          later(periodMs, send);
        };
        await send();
        return;
      }
      if (answer.status === 202) {
        if (!announced) log(`${device.serial} : en attente d’appairage…`);
        announced = true;
      } else {
        const message = (answer.body as { message?: string } | null)?.message ?? '';
        log(`${device.serial} : ${answer.status || 'serveur injoignable'} ${message}`.trim());
      }
      later(3000, ask);
    };
    void ask();
  }
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
  };
}
