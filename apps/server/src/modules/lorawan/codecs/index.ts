import { adeunisTemp } from './adeunis-temp.ts';
import { browanTbdw100, browanTbhh100, browanTbhv110 } from './browan-tabs.ts';
import { cayenneLpp } from './cayenne-lpp.ts';
import { draginoLht52 } from './dragino-lht52.ts';
import { draginoLht65, draginoLht65n } from './dragino-lht65.ts';
import { elsysEms, elsysErs } from './elsys.ts';
import { lairdRs1xx } from './laird-rs1xx.ts';
import { milesightEm300Di, milesightEm300Mcs, milesightEm300Th, milesightEm500Pt100 } from './milesight-em300.ts';
import { netvoxR718a } from './netvox-r718a.ts';
import type { Codec } from './types.ts';

export type { Codec, CodecInput, CodecResult, DecodedReading } from './types.ts';

/** The built-in LoRaWAN codecs, pure functions of the frame's bytes (see README.md for their sources). */
export const CODECS: readonly Codec[] = Object.freeze([
  milesightEm300Th,
  milesightEm300Mcs,
  milesightEm300Di,
  milesightEm500Pt100,
  elsysErs,
  elsysEms,
  draginoLht65,
  draginoLht65n,
  draginoLht52,
  adeunisTemp,
  browanTbhh100,
  browanTbdw100,
  browanTbhv110,
  netvoxR718a,
  lairdRs1xx,
  cayenneLpp,
]);

const BY_ID: ReadonlyMap<string, Codec> = new Map(CODECS.map((codec) => [codec.id, codec]));

export function codecById(id: string): Codec | undefined {
  return BY_ID.get(id);
}

/**
 * The Things Stack's device repository ids (`version_ids.brand_id` / `model_id`) to the codec that
 * reads the device. Elsys devices all share one payload format: the EMS family reads its own
 * types, every other model the ERS's.
 */
const BY_MODEL: Readonly<Record<string, Readonly<Record<string, string>> | string>> = {
  'milesight-iot': {
    'em300-th': 'milesight-em300-th',
    'em300-mcs': 'milesight-em300-mcs',
    'em300-di': 'milesight-em300-di',
    'em500-pt100': 'milesight-em500-pt100',
  },
  elsys: { ems: 'elsys-ems', 'ems-door': 'elsys-ems', 'ems-lite': 'elsys-ems', '*': 'elsys-ers' },
  dragino: { lht65: 'dragino-lht65', lht65n: 'dragino-lht65n', lht52: 'dragino-lht52' },
  adeunis: { temp: 'adeunis-temp', 'temp-4': 'adeunis-temp' },
  laird: { 'rs1xx-temp-rh-sensor': 'laird-rs1xx' },
  browan: {
    tbhh100: 'browan-tbhh100',
    temperaturehumiditysensor: 'browan-tbhh100',
    tbdw100: 'browan-tbdw100',
    doorwindowsensor: 'browan-tbdw100',
    tbhv110: 'browan-tbhv110',
  },
  netvox: { r718a: 'netvox-r718a', r718ab: 'netvox-r718a', r711: 'netvox-r718a', r720a: 'netvox-r718a' },
};

/** From The Things Stack's end_device_ids/version_ids {brand_id, model_id} (e.g. 'milesight-iot', 'em300-th'), the codec id to suggest, or null. */
export function suggestCodec(versionIds: { brand_id?: string; model_id?: string } | null | undefined): string | null {
  const brand = typeof versionIds?.brand_id === 'string' ? versionIds.brand_id.trim().toLowerCase() : '';
  const model = typeof versionIds?.model_id === 'string' ? versionIds.model_id.trim().toLowerCase() : '';
  if (!brand || !model || !Object.hasOwn(BY_MODEL, brand)) return null;
  const entry = BY_MODEL[brand];
  if (typeof entry === 'string') return entry;
  if (!entry) return null;
  // `*`: every other model of the brand.
  return Object.hasOwn(entry, model) ? (entry[model] ?? null) : Object.hasOwn(entry, '*') ? (entry['*'] ?? null) : null;
}
