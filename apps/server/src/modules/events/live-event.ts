import {
  alertStreamEventSchema,
  deviceEventSchema,
  deviceKindSchema,
  readingEventSchema,
  reportStreamEventSchema,
  taskStreamEventSchema,
  uuidSchema,
} from '@vigie/contract';
import { z } from 'zod';

/**
 * Every event of the bus, one member per type, built from the contract's event schemas so the
 * stream and the browser read the same shapes. `revoked`, `restored`, `session-ended`,
 * `account-changed`, `devices-changed`, `calibration-changed` and `sites-changed` are internal (a device token ended, a
 * device came back from the trash, a user logged out, an account, a device or the sites of a region changed, on any
 * instance): browsers never see them.
 */
export const liveEventPayloadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reading'), data: readingEventSchema }),
  z.object({ type: z.literal('device'), data: deviceEventSchema }),
  z.object({ type: z.literal('revoked'), data: z.object({ deviceId: uuidSchema }) }),
  z.object({ type: z.literal('restored'), data: z.object({ deviceId: uuidSchema }) }),
  z.object({ type: z.literal('alert'), data: alertStreamEventSchema }),
  z.object({ type: z.literal('report'), data: reportStreamEventSchema }),
  z.object({ type: z.literal('task'), data: taskStreamEventSchema }),
  // Internal to the alerts module: an organization's rules changed, every instance reads them again.
  z.object({ type: z.literal('alert-rules'), data: z.object({}) }),
  // Internal: a session ended (logout); every instance closes the live streams it opened.
  z.object({ type: z.literal('session-ended'), data: z.object({ userId: uuidSchema, sessionId: uuidSchema }) }),
  // Internal: a user (or, without one, every user of the organization) changed: role, two-factor state.
  z.object({ type: z.literal('account-changed'), data: z.object({ userId: uuidSchema.nullable() }) }),
  // Internal: a device of the organization was created, changed, trashed or restored.
  z.object({ type: z.literal('devices-changed'), data: z.object({ kind: deviceKindSchema }) }),
  // Internal: a sensor's verification was recorded; every instance reads its corrections again.
  z.object({ type: z.literal('calibration-changed'), data: z.object({ sensorId: uuidSchema }) }),
  // Internal: a site came, went or changed region, or a region went: the scopes naming regions hold other sites.
  z.object({ type: z.literal('sites-changed'), data: z.object({}) }),
]);
export type LiveEventPayload = z.infer<typeof liveEventPayloadSchema>;
export type LiveEventType = LiveEventPayload['type'];

/** The types a browser's stream carries. */
export const BROWSER_EVENT_TYPES: ReadonlySet<LiveEventType> = new Set(['reading', 'device', 'alert', 'report', 'task']);

/** An event as it travels between instances: its payload, its organization and a unique id. */
export const liveEventSchema = z.intersection(z.object({ id: z.string(), organizationId: z.string() }), liveEventPayloadSchema);
export type LiveEvent = z.infer<typeof liveEventSchema>;
