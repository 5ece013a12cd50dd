import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'une valeur booléenne est attendue (true ou false)',
  })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const port = z.coerce
  .number({ error: 'un numéro de port est attendu' })
  .int({ error: 'un numéro de port entier est attendu' })
  .min(0, { error: 'un port entre 0 et 65535 est attendu' })
  .max(65535, { error: 'un port entre 0 et 65535 est attendu' });

const positiveInt = z.coerce.number({ error: 'un nombre entier est attendu' }).int().positive();

/** Ranges of addresses a proxy list may name by their usual names. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IP address, or a range in CIDR notation (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies stand between the clients and the server: `false` (none), a number of proxies
 * (`true` is one), or the proxies' addresses and ranges. Each proxy adds to `X-Forwarded-For` the
 * address it received the request from; only the entries added by trusted proxies are believed.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    const word = value.toLowerCase();
    if (['false', '0', 'no', 'off'].includes(word)) return false;
    if (['true', 'yes', 'on'].includes(word)) return 1;
    if (/^[1-9]\d?$/.test(word)) return Number(word);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length > 0 && entries.every(isAddressOrRange)) return entries;
    context.addIssue({
      code: 'custom',
      message:
        'true (un proxy), le nombre de proxys devant le serveur, ou leurs adresses IP ou plages CIDR séparées par des virgules (127.0.0.1, 10.0.0.0/8, loopback…) sont attendus',
    });
    return z.NEVER;
  });

/** The built web app, next to this package in the monorepo. */
const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** A migrated embedded database saved as a file: a DATA_DIR without a database yet starts from it. */
  PGLITE_TEMPLATE: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'une adresse postgres://… est attendue' })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'le secret doit contenir au moins 32 caractères' }).optional(),
  TOTP_KEY: z.string().min(32, { error: 'la clé doit contenir au moins 32 caractères' }).optional(),
  TOTP_PREVIOUS_KEYS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, { error: 'chaque ancienne clé doit contenir au moins 32 caractères' }))),
  SEED_DEMO: booleanFromEnv.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).default(defaultWebDist),
  TRUST_PROXY: trustProxy.default(false),
  MQTT_PORT: port.default(1883),
  MQTT_HOST: z.string().min(1).optional(),
  MQTT_MAX_MESSAGES_PER_SECOND: positiveInt.default(100),
  MQTT_BROKER_URL: z
    .string()
    .regex(/^mqtts?:\/\/[^:@/]+:[^@/]+@[^/]+$/, {
      error: 'une adresse mqtt://utilisateur:motdepasse@hôte:port est attendue (le compte de Vigie sur le broker)',
    })
    .optional(),
  MQTT_BROKER_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, { error: 'de 1 à 40 lettres, chiffres, « - », « _ » ou « . » sont attendus' })
    .optional(),
  MQTT_BROKER_CONSUMERS: positiveInt.max(256, { error: 'au plus 256 connexions' }).default(32),
  MQTT_BROKER_PUBLIC_PORT: port.optional(),
  RETENTION_DAYS: positiveInt.default(400),
  LOGIN_MAX_FAILURES_PER_EMAIL: positiveInt.default(10),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt.default(100),
  LOGIN_FAILURE_WINDOW_SECONDS: positiveInt.default(900),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, { error: 'une adresse smtp://[utilisateur:motdepasse@]hôte:port est attendue' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Vigie <alertes@vigie.local>'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'une adresse http(s):// est attendue' }).optional(),
  WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
  /** The bearer token of GET /metrics (Prometheus); without it, /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, { error: 'au moins 16 caractères' }).optional(),
  /** Web Push's VAPID key pair (base64url): the same on every instance; derived from JWT_SECRET without it. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, { error: 'une clé publique P-256 en base64url (87 caractères) est attendue' })
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'une clé privée P-256 en base64url (43 caractères) est attendue' })
    .optional(),
  /** Who push services may contact about this server: mailto: or https: (PUBLIC_URL when it is https). */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, { error: 'une adresse mailto: ou https:// est attendue' })
    .optional(),
  /** SMS and calls of the on-call ladder: `twilio` or `vonage`, with that provider's credentials. */
  PHONE_PROVIDER: z.enum(['twilio', 'vonage'], { error: 'twilio ou vonage est attendu' }).optional(),
  PHONE_FROM: z.string().trim().min(2).max(20).optional(),
  TWILIO_ACCOUNT_SID: z.string().trim().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().trim().min(1).optional(),
  TWILIO_API_URL: z.url({ protocol: /^https?$/, error: 'une adresse http(s):// est attendue' }).default('https://api.twilio.com'),
  VONAGE_API_KEY: z.string().trim().min(1).optional(),
  VONAGE_API_SECRET: z.string().trim().min(1).optional(),
  VONAGE_APPLICATION_ID: z.string().trim().min(1).optional(),
  /** The Vonage application's private key (PEM); `\n` may stand for line breaks. */
  VONAGE_PRIVATE_KEY: z.string().min(1).optional(),
  VONAGE_SMS_URL: z.url({ protocol: /^https?$/, error: 'une adresse http(s):// est attendue' }).default('https://rest.nexmo.com'),
  VONAGE_VOICE_URL: z.url({ protocol: /^https?$/, error: 'une adresse http(s):// est attendue' }).default('https://api.nexmo.com'),
  INVITATION_TTL_HOURS: positiveInt.max(24 * 365, { error: 'une durée d’un an au plus est attendue' }).default(168),
  PASSWORD_RESET_TTL_MINUTES: positiveInt.max(24 * 60, { error: 'une durée d’un jour au plus est attendue' }).default(60),
  DEMO_SIMULATOR: booleanFromEnv.default(true),
  INSIGHTS_INTERVAL_SECONDS: z.coerce.number({ error: 'un nombre entier est attendu' }).int().min(0).max(86_400).default(60),
  INSIGHTS_REFRESH_SECONDS: positiveInt.default(300),
  INSIGHTS_PASS_LIMIT: positiveInt.max(100_000).default(500),
  SESSION_IDLE_MINUTES: positiveInt.default(30),
  SESSION_MAX_HOURS: positiveInt.default(12),
  SESSION_REMEMBER_DAYS: positiveInt.default(30),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  /** PGLITE_TEMPLATE: the migrated database a new embedded database starts from. */
  pgliteTemplate: string | undefined;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  /** Seals the two-factor secrets in the database; a key derived from the signing secret without it. */
  totpKey: string | undefined;
  /** Keys that sealed secrets before the current one: they still open them, which are then sealed again. */
  totpPreviousKeys: string[];
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  webDist: string;
  /**
   * The reverse proxies in front of the server: none (false), how many, or their addresses. The
   * client's address is read from `X-Forwarded-For` walking back from the server through trusted
   * proxies only, so that what a client writes there itself is never taken for its address.
   */
  trustProxy: false | number | string[];
  mqttPort: number;
  /** False when MQTT_PORT was left to its default: a busy 1883 then only disables MQTT. */
  mqttPortExplicit: boolean;
  mqttHost: string;
  /** Telemetry messages a device may publish per second on the embedded broker; beyond, refused on its errors topic. */
  mqttMaxMessagesPerSecond: number;
  /**
   * An external broker (Mosquitto with its dynamic-security plugin) holds the devices' connections
   * instead of the embedded one; null for the embedded broker.
   */
  mqttBroker: {
    url: string;
    /** Stable per instance: the broker keeps this instance's unacknowledged readings for it across a restart. */
    clientId: string;
    /** Connections sharing the telemetry subscription, each handling one message at a time. */
    consumers: number;
    /** The port devices are told to use (the broker's, or a load balancer's in front of it). */
    publicPort: number;
  } | null;
  retentionDays: number;
  loginLimits: { maxFailuresPerEmail: number; maxFailuresPerIp: number; windowSeconds: number };
  /** Outgoing e-mail; null when SMTP_URL is unset (e-mail is then off, and the UI says so). */
  mail: { smtpUrl: string; from: string } | null;
  /** Base of the links in e-mails, without a trailing slash. */
  publicUrl: string;
  /** Webhooks to loopback and private addresses, refused unless an operator allows them. */
  webhookAllowPrivate: boolean;
  /** The bearer token of GET /metrics; null, no metrics served (404). */
  metricsToken: string | null;
  /** Web Push: a configured VAPID key pair (both or neither), and the contact push services see. */
  vapid: { publicKey: string; privateKey: string } | null;
  vapidSubject: string | undefined;
  /** SMS and voice calls (the on-call ladder, phone codes); null when no provider is configured. */
  phone: PhoneConfig | null;
  /** How long an invitation link works. */
  invitationTtlHours: number;
  /** How long a password reset link works. */
  passwordResetTtlMinutes: number;
  /** With the demo account, an embedded shop keeps sending readings while the server runs. */
  demoSimulator: boolean;
  /** Seconds between two background passes of predictive analysis; 0 turns them off. */
  insightsIntervalSeconds: number;
  /** A sensor that keeps reporting is analysed again after this many seconds. */
  insightsRefreshSeconds: number;
  /** At most this many sensors are analysed by one background pass (the least recently analysed first). */
  insightsPassLimit: number;
  /**
   * How long a session lives: without « Se souvenir de moi », it ends after `idleSeconds` without
   * a request and after `maxSeconds` at the latest; with it, after `rememberSeconds`.
   */
  sessions: { idleSeconds: number; maxSeconds: number; rememberSeconds: number };
}

/** SMS and voice calls: which provider, its credentials, and its base addresses (configurable for regional endpoints and tests). */
export type PhoneConfig =
  | { provider: 'twilio'; accountSid: string; authToken: string; from: string; baseUrl: string }
  | {
      provider: 'vonage';
      apiKey: string;
      apiSecret: string;
      from: string;
      smsUrl: string;
      voiceUrl: string;
      /** For calls: the Vonage application and its private key (PEM). */
      applicationId: string | null;
      privateKey: string | null;
    };

export class ConfigError extends Error {}

/** The phone provider's settings, or null; a provider named without what it needs is refused at start. */
function phoneConfig(e: z.infer<typeof envSchema>): PhoneConfig | null {
  if (!e.PHONE_PROVIDER) return null;
  const missing = (names: string[]) =>
    new ConfigError(`Configuration invalide :\n  - PHONE_PROVIDER=${e.PHONE_PROVIDER} demande aussi ${names.join(', ')}.`);
  if (!e.PHONE_FROM) throw missing(['PHONE_FROM (le numéro ou le nom d’expéditeur)']);
  if (e.PHONE_PROVIDER === 'twilio') {
    if (!e.TWILIO_ACCOUNT_SID || !e.TWILIO_AUTH_TOKEN) throw missing(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']);
    return {
      provider: 'twilio',
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      from: e.PHONE_FROM,
      baseUrl: e.TWILIO_API_URL,
    };
  }
  if (!e.VONAGE_API_KEY || !e.VONAGE_API_SECRET) throw missing(['VONAGE_API_KEY', 'VONAGE_API_SECRET']);
  if (Boolean(e.VONAGE_APPLICATION_ID) !== Boolean(e.VONAGE_PRIVATE_KEY)) {
    throw missing(['VONAGE_APPLICATION_ID et VONAGE_PRIVATE_KEY ensemble (pour les appels)']);
  }
  return {
    provider: 'vonage',
    apiKey: e.VONAGE_API_KEY,
    apiSecret: e.VONAGE_API_SECRET,
    from: e.PHONE_FROM,
    smsUrl: e.VONAGE_SMS_URL,
    voiceUrl: e.VONAGE_VOICE_URL,
    applicationId: e.VONAGE_APPLICATION_ID ?? null,
    privateKey: e.VONAGE_PRIVATE_KEY?.replaceAll('\\n', '\n') ?? null,
  };
}

/** Reads and validates the environment once; nothing else in the server reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')} : ${issue.message}`);
    throw new ConfigError(`Configuration invalide :\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Configuration invalide :\n  - VAPID_PUBLIC_KEY et VAPID_PRIVATE_KEY vont ensemble : donnez les deux, ou aucune.',
    );
  }
  return {
    phone: phoneConfig(e),
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    pgliteTemplate: e.PGLITE_TEMPLATE === undefined ? undefined : path.resolve(e.PGLITE_TEMPLATE),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    totpKey: e.TOTP_KEY,
    totpPreviousKeys: e.TOTP_PREVIOUS_KEYS,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    mqttPort: e.MQTT_PORT,
    mqttPortExplicit: present['MQTT_PORT'] !== undefined,
    mqttHost: e.MQTT_HOST ?? e.HOST,
    mqttMaxMessagesPerSecond: e.MQTT_MAX_MESSAGES_PER_SECOND,
    mqttBroker: e.MQTT_BROKER_URL
      ? {
          url: e.MQTT_BROKER_URL,
          clientId:
            e.MQTT_BROKER_CLIENT_ID ??
            `vigie-${os
              .hostname()
              .replace(/[^A-Za-z0-9_.-]/g, '')
              .slice(0, 24)}-${e.PORT}`,
          consumers: e.MQTT_BROKER_CONSUMERS,
          publicPort: e.MQTT_BROKER_PUBLIC_PORT ?? (Number(new URL(e.MQTT_BROKER_URL).port) || 1883),
        }
      : null,
    retentionDays: e.RETENTION_DAYS,
    loginLimits: {
      maxFailuresPerEmail: e.LOGIN_MAX_FAILURES_PER_EMAIL,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    mail: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : null,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    metricsToken: e.METRICS_TOKEN ?? null,
    vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : null,
    vapidSubject: e.VAPID_SUBJECT,
    invitationTtlHours: e.INVITATION_TTL_HOURS,
    passwordResetTtlMinutes: e.PASSWORD_RESET_TTL_MINUTES,
    demoSimulator: e.DEMO_SIMULATOR,
    insightsIntervalSeconds: e.INSIGHTS_INTERVAL_SECONDS,
    insightsRefreshSeconds: e.INSIGHTS_REFRESH_SECONDS,
    insightsPassLimit: e.INSIGHTS_PASS_LIMIT,
    sessions: {
      idleSeconds: e.SESSION_IDLE_MINUTES * 60,
      maxSeconds: e.SESSION_MAX_HOURS * 3600,
      rememberSeconds: e.SESSION_REMEMBER_DAYS * 86_400,
    },
  };
}

/** For command-line entry points: the configuration, or a clear message and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
}
