import { browanTbdw100, browanTbhh100 } from './browan-tabs.ts';
import { cayenneLpp } from './cayenne-lpp.ts';
import { draginoLht65 } from './dragino-lht65.ts';
import { elsysErs } from './elsys.ts';
import { milesightEm300Mcs, milesightEm300Th } from './milesight-em300.ts';
import { netvoxR718a } from './netvox-r718a.ts';
import type { Codec } from './types.ts';

export type { Codec, CodecInput, CodecResult, DecodedReading } from './types.ts';

/** The built-in LoRaWAN codecs, pure functions of the frame's bytes (see README.md for their sources). */
export const CODECS: readonly Codec[] = Object.freeze([
  milesightEm300Th,
  milesightEm300Mcs,
  elsysErs,
  draginoLht65,
  browanTbhh100,
  browanTbdw100,
  netvoxR718a,
  cayenneLpp,
]);

const BY_ID: ReadonlyMap<string, Codec> = new Map(CODECS.map((codec) => [codec.id, codec]));

export function codecById(id: string): Codec | undefined {
  return BY_ID.get(id);
}

/**
 * The Things Stack's device repository ids (`version_ids.brand_id` / `model_id`) to the codec that
 * reads the device. Elsys devices all share one payload format, whatever the model.
 */
const BY_MODEL: Readonly<Record<string, Readonly<Record<string, string>> | string>> = {
  'milesight-iot': { 'em300-th': 'milesight-em300-th', 'em300-mcs': 'milesight-em300-mcs' },
  elsys: 'elsys-ers',
  dragino: { lht65: 'dragino-lht65', lht65n: 'dragino-lht65' },
  browan: {
    tbhh100: 'browan-tbhh100',
    temperaturehumiditysensor: 'browan-tbhh100',
    tbdw100: 'browan-tbdw100',
    doorwindowsensor: 'browan-tbdw100',
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
  return entry && Object.hasOwn(entry, model) ? (entry[model] ?? null) : null;
}
