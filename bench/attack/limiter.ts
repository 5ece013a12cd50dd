/**
 * Family 7 — login limiters raced behind a proxy. The server runs with TRUST_PROXY=1 (one proxy:
 * the client is the right-most X-Forwarded-For entry); parallel wrong logins rotate the entries a
 * client may write (the left ones). Wrong attempts evaluated (answered 401/400 rather than 429)
 * must stay within LOGIN_MAX_FAILURES_PER_EMAIL per account and address, LOGIN_MAX_FAILURES_PER_IP
 * per address, and wrong two-factor codes within LOGIN_MAX_FAILURES_PER_EMAIL per account —
 * whatever the addresses, and even after the right password is given again.
 */
import { randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { type Answer, call, createAccount, ok, pool, Tally } from './support.ts';
import type { World } from './world.ts';

export const LIMITS = { perEmail: 10, perIp: 100 };
const PASSWORD = 'limiteur-mot-de-passe-1';

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
