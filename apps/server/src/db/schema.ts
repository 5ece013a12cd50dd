import { DEVICE_KINDS } from '@vigie/contract';
import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Shared secret with which a device of this organization installs itself; created on first use. */
    installationKey: text('installation_key'),
    ...timestamps,
  },
  (t) => [uniqueIndex('organizations_name_unique').on(t.name), uniqueIndex('organizations_installation_key_unique').on(t.installationKey)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`), index('users_organization_idx').on(t.organizationId)],
);

/** Columns shared by transmitters and sensors: identity, installation and connectivity. */
const deviceColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** Manufacturer serial, set when the device installs itself; unique in its organization. */
  serial: text('serial'),
  model: text('model'),
  /** When the server last received anything from the device (or for it, through a transmitter). */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
  /** Battery level in percent, when the device reports one. */
  battery: real('battery'),
  /** Silence after which the device counts as offline. */
  inactivityTimeoutSeconds: integer('inactivity_timeout_seconds').notNull().default(600),
  /**
   * Set when the device is moved to the trash (Corbeille): hidden everywhere but the trash, its
   * history and credentials kept for a restore until the purge job erases it. It keeps its serial.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  ...timestamps,
});

export const emitters = pgTable('emitters', deviceColumns(), (t) => [
  index('emitters_organization_created_idx').on(t.organizationId, t.createdAt),
  uniqueIndex('emitters_organization_serial_unique').on(t.organizationId, t.serial),
  index('emitters_deleted_at_idx')
    .on(t.deletedAt)
    .where(sql`${t.deletedAt} is not null`),
]);

export const sensors = pgTable(
  'sensors',
  {
    ...deviceColumns(),
    /** The transmitter this sensor last reported through, if any. */
    emitterId: uuid('emitter_id').references(() => emitters.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('sensors_organization_created_idx').on(t.organizationId, t.createdAt),
    uniqueIndex('sensors_organization_serial_unique').on(t.organizationId, t.serial),
    index('sensors_deleted_at_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

/** A device's access token, stored only as a SHA-256 hash; one per device, replaced on rotation. */
export const deviceCredentials = pgTable(
  'device_credentials',
  {
    deviceId: uuid('device_id').primaryKey(),
    kind: text('kind', { enum: DEVICE_KINDS }).notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [uniqueIndex('device_credentials_token_hash_unique').on(t.tokenHash)],
);

/**
 * One row per measured value. No foreign key: the hot insert path stays cheap, and a device's
 * readings are deleted with it by the service.
 */
export const readings = pgTable(
  'readings',
  {
    deviceId: uuid('device_id').notNull(),
    key: text('key').notNull(),
    ts: timestamp('ts', { withTimezone: true, mode: 'date' }).notNull(),
    value: doublePrecision('value').notNull(),
    /** The device's own id for the reading: a retry with the same id is stored once. */
    readingId: text('reading_id'),
  },
  (t) => [
    index('readings_device_key_ts_idx').on(t.deviceId, t.key, t.ts),
    uniqueIndex('readings_dedup_unique')
      .on(t.deviceId, t.readingId, t.key)
      .where(sql`${t.readingId} is not null`),
    index('readings_ts_brin').using('brin', t.ts),
  ],
);

/** The newest value of each key of each device, kept beside the history for fast dashboards. */
export const latestValues = pgTable(
  'latest_values',
  {
    deviceId: uuid('device_id').notNull(),
    key: text('key').notNull(),
    value: doublePrecision('value').notNull(),
    ts: timestamp('ts', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key] })],
);

export const schema = { organizations, users, emitters, sensors, deviceCredentials, readings, latestValues };
export type Schema = typeof schema;
