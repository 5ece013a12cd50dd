import { createHash } from 'node:crypto';
import type { DeviceKind } from '@vigie/contract';
import type { ListedDevice } from './device-list-cache.ts';
import { toDeviceView } from './device-view.ts';

/** Bytes of whole answered lists kept, the least recently asked dropped first. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The weak ETag the API gives a body (as @fastify/etag would: SHA-1, base64). */
const weakEtag = (body: Buffer) => `W/"${createHash('sha1').update(body).digest('base64')}"`;

/**
 * The device lists of one kind as the API answers them (`{"sensors":[…]}` or `{"emitters":[…]}`),
 * with a weak ETag: each listed device is written out once, and a whole body is kept while no
 * device of its list changed and no status turned, so that the same bytes answer again.
 */
export function createDeviceListBodies(kind: DeviceKind) {
  /**
   * Each listed device written out once: a listed device is replaced whenever it changes, and its
   * status turns from online to offline with time alone, so its JSON holds until that moment.
   */
  const written = new WeakMap<ListedDevice, { json: string; until: number }>();
  /** The last list answered per organization (the most recently asked last), with its ETag. */
  const bodies = new Map<string, { listed: ListedDevice[]; body: Buffer; etag: string; until: number }>();
  let bodyBytes = 0;
  function write(listed: ListedDevice, at: number): string {
    const known = written.get(listed);
    if (known && at <= known.until) return known.json;
    const { record, latest } = listed;
    const json = JSON.stringify(toDeviceView(kind, record, latest, at).device);
    const turns = record.lastSeenAt ? record.lastSeenAt.getTime() + record.inactivityTimeoutSeconds * 1000 : Infinity;
    written.set(listed, { json, until: at <= turns ? turns : Infinity });
    return json;
  }

  return {
    /** The body of the organization's list `listed`, as of `at`: the one kept when it still holds. */
    body(organizationId: string, listed: ListedDevice[], at: number): { body: Buffer; etag: string } {
      const known = bodies.get(organizationId);
      if (known && at <= known.until && known.listed.length === listed.length && known.listed.every((device, i) => device === listed[i])) {
        bodies.delete(organizationId);
        bodies.set(organizationId, known);
        return known;
      }
      if (known) {
        bodies.delete(organizationId);
        bodyBytes -= known.body.length;
      }
      const body = Buffer.from(`{"${kind}s":[${listed.map((device) => write(device, at)).join(',')}]}`);
      let until = Infinity;
      for (const device of listed) until = Math.min(until, written.get(device)?.until ?? 0);
      const answer = { listed, body, etag: weakEtag(body), until };
      bodies.set(organizationId, answer);
      bodyBytes += body.length;
      for (const [oldest, kept] of bodies) {
        if (bodyBytes <= MAX_BODY_BYTES || oldest === organizationId) break;
        bodies.delete(oldest);
        bodyBytes -= kept.body.length;
      }
      return answer;
    },
  };
}
