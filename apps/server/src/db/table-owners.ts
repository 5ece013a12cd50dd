import type * as schema from './schema.ts';

/**
 * Who owns each table: the one module (`modules/<x>/`) whose files read and write it. Another
 * module asks the owner's service, through a port given in `services.ts`; a transaction that
 * spans two modules lends its handle to the owner's DAL (an accepted invitation and its account).
 * `db` is no module: the bus's spill table belongs to the PostgreSQL adapter in `src/db/`.
 * Checked by `table-owners.test.ts`, which scans the modules' files with `foreignTableUses`.
 */
export const TABLE_OWNERS = {
  organizations: 'organizations',
  operatorAudit: 'organizations',
  users: 'auth',
  sessions: 'auth',
  recoveryCodes: 'auth',
  passwordResets: 'auth',
  apiKeys: 'members',
  organizationSso: 'sso',
  ssoDomains: 'sso',
  ssoLogins: 'sso',
  ssoCodes: 'sso',
  invitations: 'members',
  scimTokens: 'members',
  auditEvents: 'audit',
  rateLimits: 'rate-limits',
  emitters: 'devices',
  sensors: 'devices',
  deviceCredentials: 'devices',
  factoryDevices: 'devices',
  readings: 'telemetry',
  latestValues: 'telemetry',
  sites: 'sites',
  regions: 'sites',
  alertRules: 'alerts',
  ruleTemplates: 'alerts',
  alertTracks: 'alerts',
  alerts: 'alerts',
  alertEvents: 'alerts',
  alertPauses: 'alerts',
  notificationSchedule: 'alerts',
  notificationPolicies: 'notifications',
  notificationOutbox: 'notifications',
  pushSubscriptions: 'notifications',
  userPhones: 'notifications',
  siteOnCall: 'notifications',
  dailyDigests: 'notifications',
  reports: 'reports',
  manualChecks: 'reports',
  sensorCalibrations: 'telemetry',
  readingAdjustments: 'telemetry',
  sensorInsights: 'insights',
  insightsBackfills: 'insights',
  jobLeases: 'insights',
  lorawanIntegrations: 'lorawan',
  lorawanDevices: 'lorawan',
  lorawanPending: 'lorawan',
  lorawanCodecs: 'lorawan',
  lorawanIntegrationHours: 'lorawan',
  lorawanIntegrationRefusals: 'lorawan',
  taskTemplates: 'tasks',
  tasks: 'tasks',
  taskPhotos: 'tasks',
  processes: 'tasks',
  pubsubSpill: 'db',
} as const satisfies Record<TableExport, string>;

/** Tables created by migrations alone, with no Drizzle declaration, named as SQL names them. */
export const RAW_TABLE_OWNERS: Readonly<Record<string, Owner>> = {
  reading_ids: 'telemetry',
};

type Schema = typeof schema;
/** The exported names of `schema.ts` that are tables (Drizzle's `pgTable`). */
export type TableExport = { [K in keyof Schema]: Schema[K] extends { _: { brand: 'Table' } } ? K : never }[keyof Schema];
export type Owner = (typeof TABLE_OWNERS)[TableExport];

export interface ForeignTableUse {
  table: string;
  owner: Owner;
  /** `import`: the table object is imported; `sql`: its name appears in the text of a raw SQL template. */
  how: 'import' | 'sql';
}

/** The module a source file belongs to (`…/modules/<x>/…`), or null outside the modules. */
export function moduleOf(file: string): string | null {
  return /(?:^|\/)modules\/([^/]+)\//.exec(file.replaceAll('\\', '/'))?.[1] ?? null;
}

const SCHEMA_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from\s+['"][^'"]*\/db\/schema(?:\.ts)?['"]/g;
const SQL_TEMPLATE = /\bsql(?:\.raw)?\s*`((?:[^`\\]|\\.)*)`/g;

/**
 * The tables of other modules that a module's file reaches: by importing their table objects from
 * `db/schema.ts` (or the whole `schema`), or by naming them in a raw `sql` template.
 * `sqlNames` maps each table export to its name in SQL.
 */
export function foreignTableUses(file: string, text: string, sqlNames: Readonly<Record<TableExport, string>>): ForeignTableUse[] {
  const module = moduleOf(file);
  if (!module) return [];
  const uses: ForeignTableUse[] = [];
  const owners: Readonly<Record<string, Owner>> = TABLE_OWNERS;
  for (const [, typeOnly, names] of text.matchAll(SCHEMA_IMPORT)) {
    if (typeOnly) continue;
    for (const entry of (names ?? '').split(',')) {
      const name =
        entry
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (name === '' || name.startsWith('type ')) continue;
      if (name === 'schema') uses.push({ table: 'schema', owner: 'db', how: 'import' });
      const owner = owners[name];
      if (owner && owner !== module) uses.push({ table: name, owner, how: 'import' });
    }
  }
  const sqlOwners = new Map<string, Owner>(Object.entries(RAW_TABLE_OWNERS));
  for (const [name, sqlName] of Object.entries(sqlNames)) {
    const owner = owners[name];
    if (owner) sqlOwners.set(sqlName, owner);
  }
  for (const [, template] of text.matchAll(SQL_TEMPLATE)) {
    // Only the template's own text: what `${…}` interpolates is checked as an import.
    const words = (template ?? '').replace(/\$\{[^}]*\}/g, ' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
    for (const word of new Set(words)) {
      const owner = sqlOwners.get(word);
      if (owner && owner !== module) uses.push({ table: word, owner, how: 'sql' });
    }
  }
  return uses;
}
