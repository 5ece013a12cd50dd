/** The accounts the browser tests use, each in its own organization so that lists never mix. */
export const ACCOUNT_KEYS = [
  'login', // login.spec.ts: successful logins
  'guard', // auth.spec.ts: access guard, session, logout
  'noname', // auth.spec.ts: an account without a name (header shows the email)
  'dashboard', // dashboard.spec.ts: create, delete, tabs
  'xss', // dashboard.spec.ts: hostile device names
  'empty', // never gets a device: empty states
  'empty-add', // dashboard.spec.ts: add from the empty state
  'showcase', // accessibility.spec.ts and screenshots.spec.ts: a realistic, read-only list
  'live', // live.spec.ts: devices installed and reporting while the dashboard is open
  'stranger', // live.spec.ts: another organization whose devices must never show
  'detail', // device-detail.spec.ts: rename, token, export, offline delay
  'install', // installation.spec.ts: installation key, snippet, QR code, regeneration
  'gallery', // devices-screens.spec.ts: a shop with live values and history, read-only
  'trash', // trash.spec.ts: deletion undone from the toast, restored from the Corbeille
  'alerts', // alerts.spec.ts: a fridge out of limits, acknowledged, annotated, back in range
  'claim', // claim.spec.ts: a labelled device installed from a phone, by its QR code
  'reports', // reports.spec.ts: a shop's monthly HACCP report generated, previewed, downloaded and signed
  'insights', // insights.spec.ts: fridges with days of history (a predicted breach, a stuck sensor), predicted rules
  'forecast', // predicted-alert.spec.ts: a « dépassement prévu » alert shown as a forecast beside the reading
  'team', // team.spec.ts: an admin invites a viewer by e-mail, who joins and can only read
  'journal', // journal.spec.ts: the audit trail of an admin's actions, filtered and exported
  'totp', // totp.spec.ts: two-factor authentication turned on, used to sign in, required of admins
  'recovery', // totp.spec.ts: recovery codes counted, and renewed given the password
  'totp-reset', // totp.spec.ts: an admin resets the two-factor authentication of a member who lost it
  'reset', // password-reset.spec.ts: a forgotten password reset from the e-mailed link
  'lorawan', // lorawan.spec.ts: LoRaWAN integrations, a detected device adopted, its frames on its page
  'fleet', // fleet.spec.ts: a chain's 10 000 sensors, searched, filtered and updated live
  'push', // push.spec.ts: a pushed alert shown by the service worker, taken into account from its action
  'chain', // scopes.spec.ts: a chain's shops in « Réseau », and a store manager scoped to one shop
  'calibration', // calibration.spec.ts: a sensor's verification recorded with its certificate, its values corrected
  'offline', // offline.spec.ts: the dashboard opened offline from the service worker, with its last values
  'alert-curve', // alert-curve.spec.ts: a resolved alert's page, its peak first and its curve beside the timeline
  'cards', // device-cards.spec.ts: sensor cards with their use, limit, 24 h curve, pause, battery and signal warnings
  'navigation', // navigation.spec.ts: the side menu, the phone's bottom bar and « Plus », the breadcrumb from an alert to its sensor, a viewer's menu
  'theme', // themes.spec.ts: the theme chosen in « Mon compte », which wins over the device’s and stays
  'plan', // tasks.spec.ts: the opening round done on a phone with a fridge out of limits, a cooling failed by the clock
  'plan-offline', // tasks-offline.spec.ts: the closing round answered in a cold room without network, sent when it returns
  'sso', // sso.spec.ts: people of a domain signed in through the organization's OpenID Connect provider
  'regions', // regions.spec.ts: an admin groups shops in regions from « Magasins », finds one in « Réseau », pauses a whole shop and resumes it
] as const;

export type AccountKey = (typeof ACCOUNT_KEYS)[number];

export type Account = { key: AccountKey; email: string; password: string; name: string | null; org: string };

export const ACCOUNTS_ENV = 'VIGIE_E2E_ACCOUNTS';
export const BASE_URL_ENV = 'VIGIE_E2E_BASE_URL';

export function account(key: AccountKey): Account {
  const raw = process.env[ACCOUNTS_ENV];
  if (!raw) throw new Error(`${ACCOUNTS_ENV} is not set: run the tests through playwright.config.ts.`);
  const found = (JSON.parse(raw) as Account[]).find((candidate) => candidate.key === key);
  if (!found) throw new Error(`No e2e account "${key}".`);
  return found;
}

/** Devices of the showcase account, created through the API once the server runs. */
export const SHOWCASE_DEVICES = {
  emitters: ['Passerelle Lyon Part-Dieu', 'Passerelle Paris Opéra', 'Réserve Bordeaux Centre', 'Entrepôt Lille Nord'],
  sensors: [
    'Vitrine réfrigérée n°1',
    "Compteur d'entrée principale",
    'Porte de la réserve',
    'Hygrométrie rayon frais',
    'Température caisse 2',
  ],
};

/** A maker's batch imported before the server starts (claim.spec.ts): serials and label codes. */
export type FactoryDevice = { serial: string; kind: 'sensor' | 'emitter'; model: string; claimCode: string };
export const FACTORY_ENV = 'VIGIE_E2E_FACTORY';

export function factoryDevices(): FactoryDevice[] {
  const raw = process.env[FACTORY_ENV];
  if (!raw) throw new Error(`${FACTORY_ENV} is not set: the global setup did not run.`);
  return JSON.parse(raw) as FactoryDevice[];
}
