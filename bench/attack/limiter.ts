/**
 * Family 7 — login limiters raced behind a proxy. The server runs with TRUST_PROXY=1 (one proxy:
 * the client is the right-most X-Forwarded-For entry); parallel wrong logins rotate the entries a
 * client may write (the left ones). Wrong attempts evaluated (answered 401/400 rather than 429)
 * must stay within LOGIN_MAX_FAILURES_PER_EMAIL per account and address, LOGIN_MAX_FAILURES_PER_IP
 * per address, and wrong two-factor codes within LOGIN_MAX_FAILURES_PER_EMAIL per account —
 * whatever the addresses, and even after the right password is given again.
 *
 * Family 9 (`limitedRouteRaces`) — every limited route of `LIMITED_ROUTES` raced: requests sent
 * all at once must not get past the limit (phone codes sent and checked, label codes, installation
 * keys, password reset requests, invitation links).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS, endpointKey } from '@vigie/contract';
import * as OTPAuth from 'otpauth';
import { PASSWORD_RESET_MAX_PER_EMAIL } from '../../apps/server/src/modules/auth/password-reset-service.ts';
import { type Answer, call, createAccount, ok, pool, Tally } from './support.ts';
import type { World } from './world.ts';

export const LIMITS = { perEmail: 10, perIp: 100 };
const PASSWORD = 'limiteur-mot-de-passe-1';
const PASSWORD_LIMITS = PASSWORD;

const left = () =>
  `${10 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
/** What a proxy forwards: whatever the client wrote, then the address the proxy saw (right-most). */
const forwarded = (client: string) => ({ 'x-forwarded-for': `${left()}, ${left()}, ${client}` });
const evaluated = (answers: Answer[]) => answers.filter((answer) => answer.status === 401 || answer.status === 400).length;

export async function limiterRaces(w: World): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  const suffix = randomUUID().slice(0, 6);
  const victim = `limite-${suffix}@attaque.example`;
  const totpUser = `totp-${suffix}@attaque.example`;
  createAccount(w.server.env, victim, PASSWORD, `Limites ${suffix}`);
  createAccount(w.server.env, totpUser, PASSWORD, `Double authentification ${suffix}`);
  const unexpected = (answers: Answer[], what: string) => {
    const odd = answers.filter((answer) => ![400, 401, 429].includes(answer.status));
    tally.check(odd.length === 0, () => `${what} : réponses inattendues ${odd.map((answer) => answer.status).join(', ')}`);
  };

  // One address (the proxy's right-most entry), the left entries rotated: per account and address.
  const sameAddress = await pool(Array.from({ length: 60 }), 20, () =>
    call(base, 'POST', '/api/auth/login', { body: { email: victim, password: 'pas-le-bon' }, headers: forwarded('198.51.100.7') }),
  );
  unexpected(sameAddress, 'connexions d’une adresse');
  tally.check(
    evaluated(sameAddress) <= LIMITS.perEmail,
    () => `${evaluated(sameAddress)} mauvais mots de passe évalués pour un compte depuis une adresse (≤ ${LIMITS.perEmail})`,
  );

  // One address, many accounts: per address.
  const manyAccounts = await pool(Array.from({ length: LIMITS.perIp + 50 }), 20, (_, i) =>
    call(base, 'POST', '/api/auth/login', {
      body: { email: `inconnu-${i}-${suffix}@attaque.example`, password: 'pas-le-bon' },
      headers: forwarded('198.51.100.8'),
    }),
  );
  unexpected(manyAccounts, 'connexions de comptes inconnus');
  tally.check(
    evaluated(manyAccounts) <= LIMITS.perIp,
    () => `${evaluated(manyAccounts)} mauvais essais évalués depuis une adresse (≤ ${LIMITS.perIp})`,
  );

  // Two-factor codes: the account enables it, then wrong codes from rotating addresses.
  const { accessToken } = await ok<{ accessToken: string }>(base, 'POST', '/api/auth/login', {
    body: { email: totpUser, password: PASSWORD },
  });
  const { secret } = await ok<{ secret: string }>(base, 'POST', '/api/user/totp/setup', { token: accessToken });
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  await ok(base, 'POST', '/api/user/totp/enable', { token: accessToken, body: { code: totp.generate() } });
  const wrongCode = () => {
    const right = new Set([-1, 0, 1].map((window) => totp.generate({ timestamp: Date.now() + window * 30_000 })));
    let code = '000000';
    while (right.has(code)) code = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
    return code;
  };
  let codesEvaluated = 0;
  for (let round = 0; round < 3; round += 1) {
    // The right password again each round: it must not buy more codes.
    const client = `203.0.113.${round + 1}`;
    const step = await call(base, 'POST', '/api/auth/login', { body: { email: totpUser, password: PASSWORD }, headers: forwarded(client) });
    const challenge = (step.body as { challenge?: string } | undefined)?.challenge;
    if (!challenge) {
      tally.check(step.status === 429, () => `mot de passe juste, tour ${round + 1} : ${step.status} ${step.text.slice(0, 120)}`);
      continue;
    }
    const codes = await pool(Array.from({ length: 40 }), 20, (_, i) =>
      call(base, 'POST', '/api/auth/login/totp', {
        body: { challenge, code: wrongCode() },
        headers: forwarded(i % 2 === 0 ? client : `203.0.113.${100 + i}`),
      }),
    );
    unexpected(codes, `codes faux, tour ${round + 1}`);
    codesEvaluated += evaluated(codes);
  }
  tally.check(
    codesEvaluated <= LIMITS.perEmail,
    () => `${codesEvaluated} codes de double authentification faux évalués (≤ ${LIMITS.perEmail})`,
  );
  tally.figures.push({
    label: 'essais évalués derrière le proxy',
    value: `mots de passe ${evaluated(sameAddress)} / ${LIMITS.perEmail}, par adresse ${evaluated(manyAccounts)} / ${LIMITS.perIp}, codes ${codesEvaluated} / ${LIMITS.perEmail}`,
    ok: evaluated(sameAddress) <= LIMITS.perEmail && evaluated(manyAccounts) <= LIMITS.perIp && codesEvaluated <= LIMITS.perEmail,
  });
  return tally;
}

// ---- Family 9 — every limited route raced ------------------------------------------------------

/** An SMS provider's API on loopback (Twilio's form): the codes the server was made to send. */
export async function startSmsCatcher(): Promise<{ url: string; texts: string[]; close(): Promise<void> }> {
  const texts: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.endsWith('/Messages.json'))
        texts.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('Body') ?? '');
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${randomUUID().replaceAll('-', '')}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, texts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The environment that points the server's SMS at the catcher. */
export const smsEnv = (url: string): NodeJS.ProcessEnv => ({
  PHONE_PROVIDER: 'twilio',
  PHONE_FROM: '+33700000001',
  TWILIO_ACCOUNT_SID: 'AC0123456789',
  TWILIO_AUTH_TOKEN: 'jeton-attaque',
  TWILIO_API_URL: url,
});

/**
 * Every limited route and its limit (docs/api.md, Limites): each is raced, N requests at once, and
 * at most the limit may be evaluated. Each key must be a route of the catalogue.
 */
export const LIMITED_ROUTES = {
  'PUT /api/user/phone': { limit: 5, what: 'SMS de code envoyés' },
  'POST /api/user/phone/verify': { limit: 5, what: 'codes de téléphone faux vérifiés' },
  'POST /api/devices/claim': { limit: 10, what: 'codes d’étiquette faux vérifiés (rattachement et vérification, par compte)' },
  'POST /api/devices/provision': { limit: 20, what: 'clés d’installation fausses vérifiées par adresse' },
  'POST /api/auth/password-reset': {
    limit: PASSWORD_RESET_MAX_PER_EMAIL,
    what: 'demandes de réinitialisation acceptées par adresse e-mail',
  },
  'POST /api/invitations/preview': { limit: LIMITS.perIp, what: 'liens d’invitation essayés par adresse' },
  'POST /api/auth/login': { limit: LIMITS.perEmail, what: 'mots de passe faux évalués (famille « limites derrière un proxy »)' },
  'POST /api/auth/login/totp': { limit: LIMITS.perEmail, what: 'codes de double authentification faux évalués (même famille)' },
} as const satisfies Record<string, { limit: number; what: string }>;

export async function limitedRouteRaces(w: World, sms: { texts: string[] }, short: boolean): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  const suffix = randomUUID().slice(0, 6);
  const keys = new Set(ENDPOINTS.map(endpointKey));
  for (const key of Object.keys(LIMITED_ROUTES)) tally.check(keys.has(key), () => `${key} : route limitée absente du catalogue`);
  const count = (answers: Answer[], statuses: number[]) => answers.filter((answer) => statuses.includes(answer.status)).length;
  const odd = (answers: Answer[], expected: number[], what: string) => {
    const others = answers.filter((answer) => !expected.includes(answer.status));
    tally.check(
      others.length === 0,
      () => `${what} : réponses inattendues ${others.map((a) => `${a.status} ${a.text.slice(0, 80)}`).join(' ; ')}`,
    );
  };
  const race = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
  const results: string[] = [];
  const within = (key: keyof typeof LIMITED_ROUTES, got: number) => {
    const { limit, what } = LIMITED_ROUTES[key];
    tally.check(got <= limit, () => `${key} : ${got} ${what} (≤ ${limit})`);
    results.push(`${key.split(' ')[1]} ${got}/${limit}`);
  };

  // Phone: a new account asks for codes all at once, then tries wrong codes all at once.
  const phoneUser = `telephone-${suffix}@attaque.example`;
  createAccount(w.server.env, phoneUser, PASSWORD_LIMITS, `Téléphone ${suffix}`);
  const { accessToken } = await ok<{ accessToken: string }>(base, 'POST', '/api/auth/login', {
    body: { email: phoneUser, password: PASSWORD_LIMITS },
  });
  const sentBefore = sms.texts.length;
  const codes = await race(short ? 12 : 30, () =>
    call(base, 'PUT', '/api/user/phone', { token: accessToken, body: { phone: '+33 7 81 22 33 44' } }),
  );
  odd(codes, [200, 429], 'codes SMS demandés en même temps');
  within('PUT /api/user/phone', Math.max(count(codes, [200]), sms.texts.length - sentBefore));
  const code = /(\d{6})/.exec(sms.texts.at(-1) ?? '')?.[1] ?? '';
  const wrong = code === '000000' ? '111111' : '000000';
  const guesses = await race(short ? 30 : 60, () =>
    call(base, 'POST', '/api/user/phone/verify', { token: accessToken, body: { code: wrong } }),
  );
  odd(guesses, [400], 'codes de téléphone faux');
  within('POST /api/user/phone/verify', guesses.filter((answer) => answer.text.includes('Code incorrect')).length);

  // Label codes: the manager guesses a label's code, claim and check mixed, all at once.
  const claims = await race(30, (i) =>
    call(base, 'POST', i % 2 === 0 ? '/api/devices/claim' : '/api/devices/claim/check', {
      token: w.managerA.token,
      body: { serial: `ATTAQUE-${suffix}`, claimCode: 'ZZZZ-ZZZZ-ZZZZ' },
    }),
  );
  odd(claims, [404, 429], 'codes d’étiquette faux');
  within('POST /api/devices/claim', count(claims, [404]));

  // Installation keys from one address (behind the proxy).
  const keysTried = await race(50, (i) =>
    call(base, 'POST', '/api/devices/provision', {
      body: { installationKey: `vik_faux_${randomUUID()}`, serial: `ATTAQUE-${suffix}-${i}`, kind: 'sensor' },
      headers: forwarded('198.51.100.30'),
    }),
  );
  odd(keysTried, [401, 429], 'clés d’installation fausses');
  within('POST /api/devices/provision', count(keysTried, [401]));

  // Password reset requests for one address, from many places.
  const resets = await race(30, (i) =>
    call(base, 'POST', '/api/auth/password-reset', { body: { email: phoneUser }, headers: forwarded(`198.51.100.${100 + i}`) }),
  );
  odd(resets, [200, 202, 429], 'demandes de réinitialisation');
  within('POST /api/auth/password-reset', count(resets, [200, 202]));

  // Invitation links guessed from one address.
  const links = await race(LIMITS.perIp + 50, () =>
    call(base, 'POST', '/api/invitations/preview', {
      body: { token: randomUUID().replaceAll('-', '') },
      headers: forwarded('198.51.100.31'),
    }),
  );
  odd(links, [400, 404, 410, 429], 'liens d’invitation essayés');
  within('POST /api/invitations/preview', links.filter((answer) => answer.status !== 429).length);

  tally.figures.push({ label: 'évalués / limite, en course', value: results.join(', '), ok: tally.failures.length === 0 });
  return tally;
}
