import { DEVICE_KINDS, ROLES } from '@vigie/contract';
import { sql } from 'drizzle-orm';
import type {
  ActionDetails,
  CheckKind,
  EscalationStep,
  Insights,
  IntegrationRefusalReason,
  IntegrationType,
  Ladder,
  MemberScope,
  OnCallSlot,
  OpeningHours,
  ProcessKind,
  Quantity,
  QuietHours,
  ReportSummary,
  RuleCondition,
  RuleSchedule,
  Severity,
  TaskAnswer,
  TaskItem,
  TaskKind,
  TaskSchedule,
  TaskStatus,
} from '@vigie/contract';

/**
 * An e-mail (subject and text) or a webhook (JSON body) waiting in the outbox. A `secret` e-mail
 * (an invitation link) has its text blanked once sent or given up.
 */
export type OutboxPayload =
  | { subject: string; text: string; secret?: boolean }
  | { body: Record<string, unknown> }
  /** A Web Push message for one subscription, encrypted only when it is sent (the keys stay in their table). */
  | { push: { title: string; body: string; url: string; alertId: string; tag: string }; subscriptionId: string; urgent: boolean }
  /** An SMS or a voice call of the on-call ladder: the text (read aloud for a call), the alert and the person, for the timeline. */
  | { phone: { text: string; alertId: string; userId: string; person: string } };
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Binary content, read back as a Buffer from either driver (pg gives a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

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
    /** Admins must sign in with a second factor (TOTP). */
    requireTotpForAdmins: boolean('require_totp_for_admins').notNull().default(false),
    /** docs/api.md, Opérateur: `active`, `suspended` (read only) or `erasing` (erased at `erasesAt`). */
    status: text('status', { enum: ['active', 'suspended', 'erasing'] })
      .notNull()
      .default('active'),
    erasesAt: timestamp('erases_at', { withTimezone: true, mode: 'date' }),
    /** When an instance took up the erasure (another takes it up only long after, should it stop midway). */
    erasureClaimedAt: timestamp('erasure_claimed_at', { withTimezone: true, mode: 'date' }),
    plan: text('plan'),
    /** Quotas; null, no limit. */
    quotaSensors: integer('quota_sensors'),
    quotaMembers: integer('quota_members'),
    quotaSmsPerMonth: integer('quota_sms_per_month'),
    /** The operators' own organization: no client's, never listed, never erased. */
    internal: boolean('internal').notNull().default(false),
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
    /** docs/api.md, Rôles: what the person may do in the organization. */
    role: text('role', { enum: ROLES }).notNull().default('admin'),
    /** Two-factor authentication: the TOTP secret (base32) once turned on, null otherwise. */
    totpSecret: text('totp_secret'),
    /** A secret shown to the person and not yet confirmed by a code. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last time step whose code was accepted: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** docs/api.md, Régions et portées: the sites and regions the person sees; null, the whole organization. */
    scope: jsonb('scope').$type<MemberScope>(),
    /** An operator's account (docs/api.md, Opérateur): in the operators' organization, member of no client's. */
    operator: boolean('operator').notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_lower_unique').on(sql`lower(${t.email})`), index('users_organization_idx').on(t.organizationId)],
);

/**
 * A signed-in session: every access token names one, and a request is accepted only while its
 * session is neither ended nor past its end. Ending a session (logout) refuses its token at once.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    /** Opened through single sign-on (not by a password): kept when the organization enforces it. */
    viaSso: boolean('via_sso').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * An invitation to join an organization (docs/api.md, Membres et invitations): only the SHA-256 of its link's secret is
 * kept; it works once (`acceptedAt`), until `expiresAt`, unless revoked or replaced.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    /** The scope the person will have once they join; null, the whole organization. */
    scope: jsonb('scope').$type<MemberScope>(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_unique').on(t.tokenHash),
    // One pending invitation per address and organization: a new one replaces the old.
    uniqueIndex('invitations_pending_email_unique')
      .on(t.organizationId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/**
 * A password reset link (« Mot de passe oublié ? »): only the SHA-256 of its secret is kept; it
 * works once (`usedAt`), until `expiresAt`; a newer request for the same user removes it.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('password_resets_token_hash_unique').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
);

/**
 * The SCIM token of an organization (docs/api.md, Provisionnement SCIM): one at a time, a new one
 * replaces it (with a new `id`); only the SHA-256 of its secret is kept, with its first characters
 * (`prefix`) for the audit trail. `lastUsedAt` is written at most once a minute.
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('scim_tokens_organization_unique').on(t.organizationId),
    uniqueIndex('scim_tokens_token_hash_unique').on(t.tokenHash),
  ],
);

/**
 * An API key of an organization (docs/api.md, Clés d’API): only the SHA-256 of its secret is kept,
 * with its first characters (`prefix`) to recognise it. It acts with its role (never admin) and
 * scope until revoked (`revokedAt`) or past `expiresAt`; it acts for `createdBy` where a record
 * keeps a person's id, and goes with that account. `lastUsedAt` is written at most once a minute.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    role: text('role', { enum: ['viewer', 'manager'] }).notNull(),
    scope: jsonb('scope').$type<MemberScope>(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_unique').on(t.keyHash), index('api_keys_organization_idx').on(t.organizationId)],
);

/**
 * Single sign-on with OpenID Connect for an organization (docs/api.md, Authentification unique): its
 * provider (`issuer`, discovered at `issuer/.well-known/openid-configuration`), the client's id and
 * secret (sealed, secret box bound to the organization), the role of a person new to Vigie
 * (`defaultRole`, or the role of one of their `groups` in `groupRoles`), and whether the password is
 * refused to the addresses of its domains (`enforced`). One per organization.
 */
export const organizationSso = pgTable('organization_sso', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  defaultRole: text('default_role', { enum: ROLES }).notNull(),
  groupRoles: jsonb('group_roles').$type<Record<string, (typeof ROLES)[number]>>().notNull().default({}),
  enforced: boolean('enforced').notNull().default(false),
  ...timestamps,
});

/** The e-mail domains (lower case) whose people sign in through an organization's single sign-on: a domain belongs to one organization. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizationSso.organizationId, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_domains_organization_idx').on(t.organizationId)],
);

/**
 * A sign-in sent to the provider and not yet back: its `state` (only its SHA-256), `nonce` and PKCE
 * verifier, the page first asked for (`next`); used once (`usedAt`), until `expiresAt`. In the
 * database so that the callback may reach any instance.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    stateHash: text('state_hash').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    next: text('next').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('sso_logins_expires_idx').on(t.expiresAt)],
);

/** A one-time code given to the browser after the provider's answer (only its SHA-256): exchanged once for a session, within 60 s. */
export const ssoCodes = pgTable(
  'sso_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('sso_codes_created_idx').on(t.createdAt)],
);

/** A region of a chain: a group of sites (a district), for scopes and the overview. */
export const regions = pgTable(
  'regions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('regions_organization_name_unique').on(t.organizationId, sql`lower(${t.name})`)],
);

/** A shop (magasin): its time zone and weekly opening hours drive schedules and reports. */
export const sites = pgTable(
  'sites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The region the site belongs to, if any (at most one). */
    regionId: uuid('region_id').references(() => regions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    timezone: text('timezone').notNull().default('Europe/Paris'),
    openingHours: jsonb('opening_hours').$type<OpeningHours>().notNull(),
    ...timestamps,
  },
  (t) => [index('sites_organization_created_idx').on(t.organizationId, t.createdAt), index('sites_region_idx').on(t.regionId)],
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
   * When its going offline was announced: set by the one instance that claims the announcement,
   * so each silence is announced once however many instances run the job.
   */
  offlineAnnouncedAt: timestamp('offline_announced_at', { withTimezone: true, mode: 'date' }),
  /**
   * Set when the device is moved to the trash (Corbeille): hidden everywhere but the trash, its
   * history and credentials kept for a restore until the purge job erases it. It keeps its serial.
   */
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  /** The shop the device is in; every device has one (the organization's first site by default). */
  siteId: uuid('site_id')
    .notNull()
    .references(() => sites.id, { onDelete: 'restrict' }),
  ...timestamps,
});

export const emitters = pgTable('emitters', deviceColumns(), (t) => [
  index('emitters_organization_created_idx').on(t.organizationId, t.createdAt),
  index('emitters_site_idx').on(t.siteId),
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
    index('sensors_site_idx').on(t.siteId),
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
 * readings are deleted with it by the service. This is the table of the embedded database; on
 * PostgreSQL, `reading-partitions.ts` turns it into a table partitioned by day after the
 * migrations, with the same columns and indexes except the unique one, replaced there by the
 * table `reading_ids` (decision 0027).
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
    /**
     * The row's own number: readings of one device may share a time and a key (a device that sends
     * no reading id, or several), so pages of an export follow (ts, key, id), which is unique.
     */
    id: bigserial('id', { mode: 'number' }).notNull(),
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

/** A rule that watches one sensor, or every sensor of a site reporting the condition's key. */
/**
 * An organization-wide rule template (docs/api.md, Modèles de règles): the rule it lays in each
 * site it aims at (its sites, its regions' sites, or every site when both lists are empty).
 */
export const ruleTemplates = pgTable(
  'rule_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    condition: jsonb('condition').$type<RuleCondition>().notNull(),
    delaySeconds: integer('delay_seconds').notNull().default(0),
    hysteresis: doublePrecision('hysteresis').notNull().default(0),
    schedule: text('schedule').$type<RuleSchedule>().notNull().default('always'),
    severity: text('severity').$type<Severity>().notNull().default('critical'),
    preset: text('preset'),
    locked: boolean('locked').notNull().default(true),
    siteIds: jsonb('site_ids').$type<string[]>().notNull(),
    regionIds: jsonb('region_ids').$type<string[]>().notNull(),
    /** The kind of unit it aims at: words one of which a sensor's name holds; none, every sensor. */
    sensorNameContains: jsonb('sensor_name_contains')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [index('rule_templates_organization_idx').on(t.organizationId, t.createdAt)],
);

export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    sensorId: uuid('sensor_id').references(() => sensors.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    condition: jsonb('condition').$type<RuleCondition>().notNull(),
    delaySeconds: integer('delay_seconds').notNull().default(0),
    hysteresis: doublePrecision('hysteresis').notNull().default(0),
    schedule: text('schedule').$type<RuleSchedule>().notNull().default('always'),
    severity: text('severity').$type<Severity>().notNull().default('critical'),
    preset: text('preset'),
    /** The template that laid this rule in its site, if any: one rule per template and site. */
    templateId: uuid('template_id').references(() => ruleTemplates.id, { onDelete: 'cascade' }),
    /** A site's rule watches only the sensors whose name holds one of these words (a template's kind of unit). */
    sensorNameContains: jsonb('sensor_name_contains')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('alert_rules_template_site_unique')
      .on(t.templateId, t.siteId)
      .where(sql`${t.templateId} is not null`),
    index('alert_rules_organization_idx').on(t.organizationId, t.createdAt),
    index('alert_rules_sensor_idx').on(t.sensorId),
    index('alert_rules_site_idx').on(t.siteId),
  ],
);

/** Where each rule stands for each sensor (the evaluator's state), so a restart neither loses nor repeats. */
export const alertTracks = pgTable(
  'alert_tracks',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    sensorId: uuid('sensor_id').notNull(),
    state: jsonb('state').notNull(),
    updatedAt: timestamps.updatedAt,
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.sensorId] })],
);

/** An alert: at most one active (open or acknowledged) per rule and sensor, enforced by the database. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The rule and device of a sensor's alert; null for a task's or a process's. */
    ruleId: uuid('rule_id'),
    sensorId: uuid('sensor_id'),
    /** The task of the food-safety plan missed or answered out of its limits (docs/api.md, Plan de maîtrise sanitaire). */
    taskId: uuid('task_id'),
    /** The timed process (cooling, hot holding) that failed. */
    processId: uuid('process_id'),
    siteId: uuid('site_id'),
    status: text('status', { enum: ['open', 'acknowledged', 'resolved'] }).notNull(),
    severity: text('severity').$type<Severity>().notNull(),
    /** The measure the rule watched when the alert opened (`battery` for the battery, null when offline). */
    key: text('key'),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, mode: 'date' }),
    acknowledgedBy: uuid('acknowledged_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolution: text('resolution', { enum: ['auto', 'manual'] }),
    peak: doublePrecision('peak'),
    last: doublePrecision('last'),
    /**
     * Bumped by every change of state (opened again, acknowledged, annotated, resolved): what the
     * notifier compares with the revision it last planned, so it looks again only at what changed.
     */
    revision: integer('revision').notNull().default(0),
  },
  (t) => [
    uniqueIndex('alerts_one_active_per_rule_sensor')
      .on(t.ruleId, t.sensorId)
      .where(sql`${t.status} <> 'resolved'`),
    // A task or a process opens one alert, whatever instance notices it.
    uniqueIndex('alerts_task_unique')
      .on(t.taskId)
      .where(sql`${t.taskId} is not null`),
    uniqueIndex('alerts_process_unique')
      .on(t.processId)
      .where(sql`${t.processId} is not null`),
    index('alerts_organization_opened_idx').on(t.organizationId, t.openedAt),
    index('alerts_sensor_idx').on(t.sensorId, t.openedAt),
    // What the notifier reads each tick: the active alerts and the recently resolved ones.
    index('alerts_active_idx')
      .on(t.openedAt)
      .where(sql`${t.status} <> 'resolved'`),
    index('alerts_resolved_at_idx')
      .on(t.resolvedAt)
      .where(sql`${t.resolvedAt} is not null`),
  ],
);

/**
 * A pause of a sensor or of a whole site for planned work: the rules keep evaluating, the
 * notifications of its alerts wait until `until`. Ending a pause early sets `until` to then.
 */
export const alertPauses = pgTable(
  'alert_pauses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sensorId: uuid('sensor_id').references(() => sensors.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    from: timestamp('from', { withTimezone: true, mode: 'date' }).notNull(),
    until: timestamp('until', { withTimezone: true, mode: 'date' }).notNull(),
    createdBy: uuid('created_by'),
  },
  (t) => [index('alert_pauses_organization_until_idx').on(t.organizationId, t.until)],
);

/** An alert's timeline: rows are inserted, never updated. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['opened', 'acknowledged', 'action', 'notified', 'escalated', 'resolved', 'paused', 'called'] }).notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    userId: uuid('user_id'),
    text: text('text'),
    /** A guided corrective action: its kind and the products' fate. */
    details: jsonb('details').$type<ActionDetails>(),
    /** Set on lines written by background work, so a retried step never writes its line twice. */
    key: text('key'),
  },
  (t) => [
    index('alert_events_alert_idx').on(t.alertId, t.id),
    uniqueIndex('alert_events_key_unique')
      .on(t.key)
      .where(sql`${t.key} is not null`),
  ],
);

/** Who an organization's alerts are told to, and how Vigie insists (docs/api.md, Alertes). */
export const notificationPolicies = pgTable('notification_policies', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  steps: jsonb('steps').$type<EscalationStep[]>().notNull(),
  repeatMinutes: integer('repeat_minutes'),
  reacknowledgeMinutes: integer('reacknowledge_minutes').notNull(),
  webhookUrl: text('webhook_url'),
  webhookSecret: text('webhook_secret'),
  ...timestamps,
});

/**
 * Transactional outbox of e-mails and webhooks: a row per message and recipient, unique by its
 * idempotency key, delivered at least once by whichever instance claims it first.
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    channel: text('channel', { enum: ['email', 'webhook', 'push', 'sms', 'call'] }).notNull(),
    target: text('target').notNull(),
    payload: jsonb('payload').$type<OutboxPayload>().notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    uniqueIndex('notification_outbox_key_unique').on(t.idempotencyKey),
    index('notification_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Kept by the alerts module for the notifier: per alert, the revision last planned and when its next message
 * (escalation step, repeat, reminder) falls due. A clock tick reads only the alerts whose plan is
 * due or whose revision moved, found by index, instead of planning every active alert again.
 */
export const notificationSchedule = pgTable(
  'notification_schedule',
  {
    alertId: uuid('alert_id')
      .primaryKey()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    /** Null: nothing more will fall due unless the alert changes. */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('notification_schedule_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} is not null`),
  ],
);

/**
 * Bus messages too large for PostgreSQL's NOTIFY (8 000 bytes): the notification carries the row's
 * id, and every listening instance reads the payload here. Rows are dropped after a few minutes.
 */
export const pubsubSpill = pgTable(
  'pubsub_spill',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payload: text('payload').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('pubsub_spill_created_idx').on(t.createdAt)],
);

/**
 * A HACCP compliance report of a site for a month (docs/api.md, Rapports). Its PDF, CSV and JSON snapshot
 * are written once, with the PDF's SHA-256, and never updated: only the sign-off columns are set,
 * once. A report stays when its site's readings are purged.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id').notNull(),
    month: text('month').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdBy: uuid('created_by'),
    /** Made by the monthly job: at most one such report per site and month, whatever the number of instances. */
    automatic: boolean('automatic').notNull().default(false),
    sha256: text('sha256').notNull(),
    pdf: bytea('pdf').notNull(),
    csv: bytea('csv').notNull(),
    /** Everything the report says, as computed when it was made. */
    content: jsonb('content').notNull(),
    summary: jsonb('summary').$type<ReportSummary>().notNull(),
    signedBy: uuid('signed_by'),
    signedByName: text('signed_by_name'),
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }),
    signComment: text('sign_comment'),
    /** The signed copy: the same report with its signature block filled, and its SHA-256. */
    signedPdf: bytea('signed_pdf'),
    signedSha256: text('signed_sha256'),
  },
  (t) => [
    index('reports_organization_site_month_idx').on(t.organizationId, t.siteId, t.month),
    uniqueIndex('reports_one_automatic_per_site_month')
      .on(t.siteId, t.month)
      .where(sql`${t.automatic}`),
  ],
);

/**
 * A sensor's last computed insights for one measure (docs/api.md, Analyse prédictive), shared by every instance: the
 * « À surveiller » list reads them, and a request answers from them without computing.
 */
export const sensorInsights = pgTable(
  'sensor_insights',
  {
    sensorId: uuid('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** From 0 (nothing to watch) to 1 (a breach expected within minutes): the list's order. */
    urgency: real('urgency').notNull(),
    insights: jsonb('insights').$type<Insights>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.sensorId, t.key] }), index('sensor_insights_organization_urgency_idx').on(t.organizationId, t.urgency)],
);

/**
 * When a sensor's readings last arrived late (dated well before they were stored: a device sending
 * its buffer, an import). Figures computed before that moment miss them and are computed again,
 * from the whole history, at the next request or pass.
 */
export const insightsBackfills = pgTable('insights_backfills', {
  sensorId: uuid('sensor_id')
    .primaryKey()
    .references(() => sensors.id, { onDelete: 'cascade' }),
  backfilledAt: timestamp('backfilled_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** A periodic job's turn: the instance that holds the lease runs it, the others skip until it expires. */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true, mode: 'date' }).notNull(),
});

export const schema = {
  organizations,
  users,
  sites,
  emitters,
  sensors,
  deviceCredentials,
  readings,
  latestValues,
  alertRules,
  alertTracks,
  alerts,
  alertEvents,
  notificationPolicies,
  notificationOutbox,
  reports,
  sensorInsights,
  insightsBackfills,
  jobLeases,
};
export type Schema = typeof schema;

/**
 * A maker's device, loaded from its batch before anyone owns it (docs/api.md, Rattachement des appareils d'usine). Its label's claim
 * code is stored only as an argon2id hash; a person of an organization claims it, then the device
 * receives its token.
 */
export const factoryDevices = pgTable(
  'factory_devices',
  {
    serial: text('serial').primaryKey(),
    kind: text('kind', { enum: DEVICE_KINDS }).notNull(),
    model: text('model'),
    claimCodeHash: text('claim_code_hash').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The organization that claimed it; null while it waits on a shelf. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    /** The device it became in that organization. */
    deviceId: uuid('device_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    claimedBy: uuid('claimed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('factory_devices_organization_idx').on(t.organizationId)],
);

/**
 * The counters of the rate limits (logins, password resets, invitation links, claims,
 * provisioning) on PostgreSQL, so that every instance counts the same attempts. Read and written
 * by rate-limiter-flexible's Drizzle store, one atomic upsert per attempt.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * The audit trail: who did what, when, from where. Rows are inserted, never updated nor deleted
 * (a trigger refuses both). Author and subject are kept by id and by name as they were, with no
 * foreign key, so that a line survives the deletion of either.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    action: text('action').notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name'),
    actorEmail: text('actor_email'),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    subjectName: text('subject_name'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    ip: text('ip'),
  },
  (t) => [
    index('audit_events_organization_idx').on(t.organizationId, t.id),
    index('audit_events_organization_at_idx').on(t.organizationId, t.at),
  ],
);

/**
 * What the operators did (docs/api.md, Opérateur): kept apart from the organizations' own audit
 * trail, and kept after an organization is erased (no foreign key to it).
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The operator; null for what a job did (the erasure). */
    operatorId: uuid('operator_id'),
    operatorEmail: text('operator_email'),
    action: text('action').notNull(),
    organizationId: uuid('organization_id'),
    organizationName: text('organization_name'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('operator_audit_at_idx').on(t.at)],
);

/** Single-use recovery codes of an account with two-factor authentication: only their SHA-256 is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_unique').on(t.userId, t.codeHash)],
);

/**
 * A network server (The Things Stack, ChirpStack) that forwards an organization's LoRaWAN uplinks
 * to its events endpoint (`endpoints.integrations.events`); its secret is stored only as a SHA-256 hash.
 */
export const lorawanIntegrations = pgTable(
  'lorawan_integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type').$type<IntegrationType>().notNull(),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    lastEventAt: timestamp('last_event_at', { withTimezone: true, mode: 'date' }),
    /** The Things Stack's MQTT server, when Vigie connects to it (null: a webhook). */
    mqttServer: text('mqtt_server'),
    mqttUsername: text('mqtt_username'),
    /** The API key, sealed (secret box, bound to the integration's id). */
    mqttPassword: text('mqtt_password'),
    /** `connecting`, `connected` or `error`, written by the instance that holds the connection. */
    mqttState: text('mqtt_state').$type<'connecting' | 'connected' | 'error'>(),
    mqttError: text('mqtt_error'),
    ...timestamps,
  },
  (t) => [index('lorawan_integrations_organization_idx').on(t.organizationId, t.createdAt)],
);

/** A registered LoRaWAN device: its DevEUI (lower-case), the sensor it is, its codec and its last signal. */
export const lorawanDevices = pgTable(
  'lorawan_devices',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    devEui: text('dev_eui').notNull(),
    sensorId: uuid('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    codec: text('codec').notNull(),
    lastUplinkAt: timestamp('last_uplink_at', { withTimezone: true, mode: 'date' }),
    rssi: real('rssi'),
    snr: real('snr'),
    gateway: text('gateway'),
    /** Why the last frame could not be read (French), null once one is. */
    lastError: text('last_error'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.devEui] }), uniqueIndex('lorawan_devices_sensor_unique').on(t.sensorId)],
);

/** Uplinks of a DevEUI the organization has not registered, kept for adoption (« Nouveaux appareils détectés »). */
export const lorawanPending = pgTable(
  'lorawan_pending',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    devEui: text('dev_eui').notNull(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => lorawanIntegrations.id, { onDelete: 'cascade' }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    uplinks: integer('uplinks').notNull().default(1),
    brand: text('brand'),
    model: text('model'),
    fPort: integer('f_port'),
    payloadHex: text('payload_hex'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.devEui] })],
);

/**
 * An integration's messages hour by hour (docs/api.md, Santé d'une intégration): one row per hour
 * with messages, added to by every instance with one upsert; the hours older than a day are
 * removed now and then.
 */
export const lorawanIntegrationHours = pgTable(
  'lorawan_integration_hours',
  {
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => lorawanIntegrations.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true, mode: 'date' }).notNull(),
    /** Messages received with the right secret (refused for their content included). */
    messages: integer('messages').notNull().default(0),
    /** Messages refused (or not stored: unknown device, undecodable), and calls with a wrong secret. */
    refused: integer('refused').notNull().default(0),
    /** The hour's last message received with the right secret. */
    lastAt: timestamp('last_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.integrationId, t.hour] })],
);

/** An integration's last refused messages, with their reason (about the last 50 kept, trimmed in batches). */
export const lorawanIntegrationRefusals = pgTable(
  'lorawan_integration_refusals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => lorawanIntegrations.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    reason: text('reason').$type<IntegrationRefusalReason>().notNull(),
    message: text('message').notNull(),
    devEui: text('dev_eui'),
  },
  (t) => [index('lorawan_integration_refusals_integration_idx').on(t.integrationId, t.id)],
);

/**
 * A codec an organization pasted, in the LoRa Alliance TS013 form (`decodeUplink(input)`), run in a
 * sandbox; a device names it `custom:<id>`.
 */
export const lorawanCodecs = pgTable(
  'lorawan_codecs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    source: text('source').notNull(),
    /** The measures its sample frame gave when it was saved. */
    measures: jsonb('measures').$type<string[]>().notNull(),
    ...timestamps,
  },
  (t) => [index('lorawan_codecs_organization_idx').on(t.organizationId, t.createdAt)],
);

/**
 * A person's Web Push subscription on one browser (docs/api.md, Notifications poussées): where the
 * push service takes messages for it, and the keys its payloads are encrypted with (RFC 8291).
 * The same browser subscribed again, by whoever is signed in there, replaces the row.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key and its authentication secret, base64url. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * A person's phone for SMS and calls (docs/api.md, Astreinte, SMS et appels): used once the code
 * sent to it was given back (`verifiedAt`); only the code's SHA-256 is kept, until it expires.
 * Also the person's quiet hours.
 */
export const userPhones = pgTable('user_phones', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** E.164; null when the person only set quiet hours. */
  number: text('number'),
  verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
  codeHash: text('code_hash'),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true, mode: 'date' }),
  codeAttempts: integer('code_attempts').notNull().default(0),
  /** Codes sent in the current hour, from `codesWindowStart`: five at most. */
  codesSent: integer('codes_sent').notNull().default(0),
  codesWindowStart: timestamp('codes_window_start', { withTimezone: true, mode: 'date' }),
  quietHours: jsonb('quiet_hours').$type<QuietHours>(),
  ...timestamps,
});

/** A site's on-call rota (« astreinte ») and its escalation ladder. */
export const siteOnCall = pgTable('site_on_call', {
  siteId: uuid('site_id')
    .primaryKey()
    .references(() => sites.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  slots: jsonb('slots').$type<OnCallSlot[]>().notNull(),
  ladder: jsonb('ladder').$type<Ladder>().notNull(),
  ...timestamps,
});

/**
 * A temperature taken by hand (docs/api.md, Actions guidées et contrôles manuels): a product
 * probed, a delivery at reception, a unit whose sensor was down; who took it and when. Never a
 * sensor reading.
 */
export const manualChecks = pgTable(
  'manual_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    sensorId: uuid('sensor_id').references(() => sensors.id, { onDelete: 'set null' }),
    kind: text('kind').$type<CheckKind>().notNull(),
    product: text('product'),
    supplier: text('supplier'),
    temperature: doublePrecision('temperature').notNull(),
    accepted: boolean('accepted'),
    quantity: jsonb('quantity').$type<Quantity>(),
    note: text('note'),
    takenAt: timestamp('taken_at', { withTimezone: true, mode: 'date' }).notNull(),
    takenBy: uuid('taken_by').references(() => users.id, { onDelete: 'set null' }),
    /** The name of who took it, kept if the account goes. */
    takenByName: text('taken_by_name').notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('manual_checks_site_taken_idx').on(t.siteId, t.takenAt)],
);

/**
 * A sensor's verifications against a reference instrument (docs/api.md, Vérifications des
 * capteurs). `measured_offset` is what the sensor reads above the reference: its temperatures
 * from `verified_at` until the next verification are stored corrected by it. Never updated
 * but for `reminded_at`, never deleted but with the sensor.
 */
export const sensorCalibrations = pgTable(
  'sensor_calibrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    sensorId: uuid('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }).notNull(),
    method: text('method').notNull(),
    measuredOffset: doublePrecision('measured_offset').notNull(),
    nextDueAt: timestamp('next_due_at', { withTimezone: true, mode: 'date' }),
    note: text('note'),
    certificate: bytea('certificate'),
    certificateName: text('certificate_name'),
    certificateType: text('certificate_type'),
    certificateSha256: text('certificate_sha256'),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    /** The name of who recorded it, kept if the account goes. */
    recordedByName: text('recorded_by_name').notNull(),
    /** When the reminder of `next_due_at` was queued (once). */
    remindedAt: timestamp('reminded_at', { withTimezone: true, mode: 'date' }),
    /**
     * When its offset starts correcting the temperatures: `verified_at`, moved past the periods of
     * its site that a signed report covered when it was recorded (decision 0046); null for those
     * recorded before, which apply from `verified_at`.
     */
    appliesFrom: timestamp('applies_from', { withTimezone: true, mode: 'date' }),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index('sensor_calibrations_sensor_verified_idx').on(t.sensorId, t.verifiedAt),
    index('sensor_calibrations_due_idx').on(t.nextDueAt),
  ],
);

/**
 * A verification's correction of temperatures already stored when it was recorded (decision 0046):
 * the readings of the sensor in [from_ts, to_ts) whose row id is below `below_id` read `delta` lower.
 * The readings themselves are never rewritten; written once, never updated, gone with the sensor.
 */
export const readingAdjustments = pgTable(
  'reading_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sensorId: uuid('sensor_id')
      .notNull()
      .references(() => sensors.id, { onDelete: 'cascade' }),
    calibrationId: uuid('calibration_id')
      .notNull()
      .references(() => sensorCalibrations.id, { onDelete: 'cascade' }),
    fromTs: timestamp('from_ts', { withTimezone: true, mode: 'date' }).notNull(),
    toTs: timestamp('to_ts', { withTimezone: true, mode: 'date' }),
    belowId: bigint('below_id', { mode: 'number' }).notNull(),
    delta: doublePrecision('delta').notNull(),
  },
  (t) => [index('reading_adjustments_sensor_idx').on(t.sensorId)],
);

/** Who receives the daily digest of yesterday's alerts (docs/api.md, Résumé quotidien), and the last day it left for them. */
export const dailyDigests = pgTable('daily_digests', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull(),
  /** The local day (`YYYY-MM-DD`) of the last digest queued, so that one day gets one. */
  lastDay: text('last_day'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A template of the food-safety plan (docs/api.md, Plan de maîtrise sanitaire): its checklist, its
 * schedule in each site's time zone, the sites or regions it covers (both empty: every site). Never
 * deleted while tasks name it: `deleted_at` ends it. `generated_until`: how far ahead its tasks exist,
 * so that the clock reads only the templates whose horizon comes near.
 */
export const taskTemplates = pgTable(
  'task_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<TaskKind>().notNull(),
    siteIds: jsonb('site_ids').$type<string[]>().notNull(),
    regionIds: jsonb('region_ids').$type<string[]>().notNull(),
    items: jsonb('items').$type<TaskItem[]>().notNull(),
    schedule: jsonb('schedule').$type<TaskSchedule>().notNull(),
    severity: text('severity').$type<Severity>().notNull(),
    locked: boolean('locked').notNull().default(false),
    generatedUntil: timestamp('generated_until', { withTimezone: true, mode: 'date' }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    index('task_templates_organization_idx').on(t.organizationId),
    index('task_templates_horizon_idx')
      .on(t.generatedUntil)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * A task due at one time in one site: the template's checklist as it was then, its window and
 * grace, and once completed who did it, when and what they answered. Kept when its template goes.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id').notNull(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<TaskKind>().notNull(),
    severity: text('severity').$type<Severity>().notNull(),
    items: jsonb('items').$type<TaskItem[]>().notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status').$type<TaskStatus>().notNull().default('pending'),
    result: text('result', { enum: ['ok', 'nonconforming'] }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    completedBy: uuid('completed_by').references(() => users.id, { onDelete: 'set null' }),
    completedByName: text('completed_by_name'),
    answers: jsonb('answers').$type<TaskAnswer[]>(),
    comment: text('comment'),
    alertId: uuid('alert_id'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    uniqueIndex('tasks_template_site_due_unique').on(t.templateId, t.siteId, t.dueAt),
    index('tasks_organization_site_due_idx').on(t.organizationId, t.siteId, t.dueAt),
    // What the clock reads each tick: the pending tasks whose grace ends…
    index('tasks_pending_grace_idx')
      .on(t.graceEndsAt)
      .where(sql`${t.status} = 'pending'`),
    // …and the failures whose alert is not opened yet (none, but for an instance stopped between the
    // two steps): a handful of rows, whatever the tasks stored (`npm run bench:tasks`).
    index('tasks_failed_without_alert_idx')
      .on(t.dueAt)
      .where(sql`${t.alertId} is null and (${t.status} = 'missed' or ${t.result} = 'nonconforming')`),
  ],
);

/** A photo taken for a task, its bytes and their SHA-256; its type read from the bytes. */
export const taskPhotos = pgTable(
  'task_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamps.createdAt,
  },
  (t) => [index('task_photos_task_idx').on(t.taskId)],
);

/**
 * A timed process (cooling of cooked food, hot holding): its product, readings and deadline. Its
 * state changes only through the process service, one row lock at a time.
 */
export const processes = pgTable(
  'processes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ProcessKind>().notNull(),
    product: text('product').notNull(),
    sensorId: uuid('sensor_id').references(() => sensors.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    deadline: timestamp('deadline', { withTimezone: true, mode: 'date' }).notNull(),
    readings: jsonb('readings').$type<{ temperature: number; at: string }[]>().notNull(),
    status: text('status', { enum: ['running', 'ok', 'failed'] }).notNull(),
    failure: text('failure'),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedByName: text('started_by_name').notNull(),
    alertId: uuid('alert_id'),
    createdAt: timestamps.createdAt,
  },
  (t) => [
    index('processes_organization_site_started_idx').on(t.organizationId, t.siteId, t.startedAt),
    index('processes_running_deadline_idx')
      .on(t.deadline)
      .where(sql`${t.status} = 'running'`),
    // The failed processes whose alert is not opened yet, which the clock looks for each tick.
    index('processes_failed_without_alert_idx')
      .on(t.deadline)
      .where(sql`${t.status} = 'failed' and ${t.alertId} is null`),
  ],
);
