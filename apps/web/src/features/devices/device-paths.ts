import type { DeviceKind } from './device-kinds';

/** URL segment of each kind's detail pages, in the product's language. */
export const DEVICE_PATH_SEGMENTS: Record<DeviceKind, string> = { emitter: 'emetteurs', sensor: 'capteurs' };

/** The detail page of a device: /dashboard/capteurs/:id or /dashboard/emetteurs/:id. */
export function deviceDetailPath(kind: DeviceKind, id: string): string {
  return `/dashboard/${DEVICE_PATH_SEGMENTS[kind]}/${encodeURIComponent(id)}`;
}
