/**
 * Family 2 — every route fed what a careless or hostile client sends: malformed JSON, wrong
 * types, huge strings, deep nesting, NUL and lone surrogates, numbers beyond 2^53, prototype keys,
 * oversized bodies and headers, odd ids and query strings. A failure is a 5xx, a cut connection,
 * an error that is not JSON or has no French `message`, or a polluted prototype afterwards.
 */
import { randomUUID } from 'node:crypto';
import { type Answer, call, describe, frenchError, ok, Tally } from './support.ts';
import { PUBLIC_ROUTES, SECURED_ROUTES, validBody } from './roles.ts';
import type { World } from './world.ts';

type Body = { raw: string | Uint8Array<ArrayBuffer>; label: string; contentType?: string };

const huge = (n: number) => 'é'.repeat(n);
const OVERSIZED = 'corps de 2 Mio';

/** Variants of a route's valid body (an object): each field of another type, and the classic traps. */
function variants(valid: Record<string, unknown>, short: boolean): Body[] {
  const out: Body[] = [
    { label: 'JSON tronqué', raw: '{"name": "Sonde' },
    { label: 'virgule finale', raw: '{"name": "a",}' },
    { label: 'pas du JSON', raw: 'nom=sonde' },
    { label: 'vide', raw: '' },
    { label: 'null', raw: 'null' },
    { label: 'tableau', raw: '[]' },
    { label: 'nombre', raw: '42' },
    { label: 'imbrication 100 000', raw: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
    { label: 'objets imbriqués 20 000', raw: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}` },
    { label: 'caractère nul', raw: JSON.stringify({ ...valid, name: 'a\u0000b', text: 'a\u0000b' }) },
    { label: 'moitié de caractère', raw: JSON.stringify({ ...valid, name: 'a\ud800b', text: 'a\udc00' }) },
    { label: 'UTF-8 invalide', raw: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]) },
    { label: 'UTF-16', raw: new Uint8Array(Buffer.from('{"name":"a"}', 'utf16le')), contentType: 'application/json; charset=utf-16' },
    { label: 'latin-1', raw: '{"name":"caf\u00e9"}', contentType: 'application/json; charset=iso-8859-1' },
    { label: 'texte brut', raw: JSON.stringify(valid), contentType: 'text/plain' },
    { label: 'chaîne de 60 000', raw: JSON.stringify({ ...valid, name: huge(60_000), text: huge(60_000), comment: huge(60_000) }) },
    { label: OVERSIZED, raw: JSON.stringify({ ...valid, name: 'x'.repeat(2 * 1024 * 1024) }) },
    { label: '__proto__', raw: `{"__proto__": {"polluted": "oui", "role": "admin"}, ${JSON.stringify(valid).slice(1)}` },
    { label: 'constructor', raw: JSON.stringify({ ...valid, constructor: { prototype: { polluted: 'oui' } } }) },
    {
      label: 'clé en double',
      raw: `{"name": "a", "name": {"x": 1}${Object.keys(valid).length ? ', ' : ''}${JSON.stringify(valid).slice(1)}`,
    },
  ];
  for (const [key, value] of Object.entries(valid)) {
    const others: [string, unknown][] = [
      ['nombre', 12],
      ['2^53 + 1', '§9007199254740993'],
      ['1e400', '§1e400'],
      ['-0', '§-0'],
      ['booléen', true],
      ['tableau', [value, value]],
      ['objet', { value }],
      ['null', null],
      ['chaîne', typeof value === 'string' ? `${value}${huge(200)}` : 'douze'],
    ];
    // The short profile keeps three wrong types per field; the full one all of them.
    for (const [label, other] of short ? others.filter(([label]) => ['nombre', 'null', '2^53 + 1'].includes(label)) : others) {
      let raw = JSON.stringify({ ...valid, [key]: other });
      // Numbers JSON can write but a double cannot hold: written raw, not through JSON.stringify.
      if (typeof other === 'string' && other.startsWith('§')) raw = raw.replace(JSON.stringify(other), other.slice(1));
      out.push({ label: `${key} : ${label}`, raw });
    }
  }
  return out;
}

function judge(tally: Tally, method: string, path: string, label: string, answer: Answer): void {
  // A body far over the limit is answered 413 before it is read, and the connection closed: a
  // client still sending may see the close before the answer. The server's health is checked after.
  const cutWhileSending = answer.status === 0 && label === OVERSIZED;
  if ((answer.status >= 200 && answer.status < 300) || cutWhileSending) {
    tally.check(true, () => '');
    return;
  }
  const bad = answer.status === 0 ? 'connexion coupée sans réponse' : answer.status >= 500 ? 'erreur serveur' : frenchError(answer);
  tally.check(bad === undefined, () => `${label} : ${describe(method, path, answer)} — ${bad}`);
}

export async function fuzzRoutes(w: World, short: boolean): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  let token = await w.login(w.adminA.email);
  const { installationKey } = await ok<{ installationKey: string }>(base, 'GET', '/api/organization/installation-key', { token });
  const publicBodies: Record<string, Record<string, unknown>> = {
    'POST /api/auth/login': { email: 'inconnu@attaque.example', password: 'pas-le-bon' },
    'POST /api/auth/login/totp': { challenge: 'pas-un-défi', code: '123456' },
    'POST /api/auth/password-reset': { email: 'inconnu@attaque.example' },
    'POST /api/auth/password-reset/confirm': { token: 'pas-un-lien', password: 'un-mot-de-passe' },
    'POST /api/invitations/preview': { token: 'pas-un-lien' },
    'POST /api/invitations/accept': { token: 'pas-un-lien', name: 'Personne', password: 'un-mot-de-passe' },
    'POST /api/devices/provision': { installationKey, serial: `FUZZ-${randomUUID().slice(0, 8)}`, kind: 'sensor' },
    'POST /api/devices/telemetry': { id: 'fuzz', values: { temperature: 4 } },
  };
  const targets: { method: string; url: string; path: string; token: string | undefined; valid: Record<string, unknown> }[] = [];
  for (const route of SECURED_ROUTES) {
    if (route.method !== 'POST' && route.method !== 'PUT') continue;
    // Members and invitations at an unknown id: the body is checked all the same, and no one is promoted.
    const id = route.url.startsWith('/api/members/') || route.url.startsWith('/api/invitations/') ? randomUUID() : idOf(route.url, w);
    targets.push({
      method: route.method,
      url: route.url,
      path: route.url.replace(':id', id),
      token: undefined,
      valid: (validBody(route.method, route.url, w.a) as Record<string, unknown>) ?? {},
    });
  }
  for (const key of PUBLIC_ROUTES) {
    const [method, url] = key.split(' ') as [string, string];
    if (method !== 'POST') continue;
    const deviceToken = url === '/api/devices/telemetry' ? w.a.sensorToken : undefined;
    targets.push({ method, url, path: url, token: deviceToken, valid: publicBodies[key] ?? {} });
  }

  for (const target of targets) {
    const sessionEnding = target.url === '/api/auth/logout' || target.url === '/api/auth/logout-all';
    for (const variant of variants(target.valid, short)) {
      const callToken = target.token ?? (sessionEnding ? await w.login(w.adminA.email) : token);
      const answer = await call(base, target.method, target.path, {
        token: target.url.startsWith('/api/auth/') && !sessionEnding ? undefined : callToken,
        raw: variant.raw,
        headers: variant.contentType ? { 'content-type': variant.contentType } : {},
      });
      judge(tally, target.method, target.path, variant.label, answer);
    }
    // Signing out of every device ended the admin's sessions: new ones for what follows.
    if (target.url === '/api/auth/logout-all') {
      token = await w.login(w.adminA.email);
      w.adminA.token = await w.login(w.adminA.email);
    }
  }

  // Every route, GETs included: odd ids, odd query strings, oversized headers.
  const oddIds = [
    'pas-un-uuid',
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '%ED%A0%80',
    '__proto__',
    'x'.repeat(300),
    '00000000-0000-0000-0000-000000000000',
  ];
  const oddQueries = [
    '?limit=1e400',
    '?limit=-1',
    '?cursor=%00',
    '?q=%ED%A0%80',
    '?from=2026-13-45',
    '?siteId=__proto__',
    '?status[]=x',
    '?__proto__[x]=1',
  ];
  for (const route of SECURED_ROUTES) {
    if (route.url === '/api/stream' || route.url === '/api/auth/logout' || route.url === '/api/auth/logout-all') continue;
    const paths = route.url.includes(':id')
      ? oddIds.map((id) => route.url.replace(':id', id))
      : route.method === 'GET'
        ? oddQueries.map((query) => `${route.url}${query}`)
        : [];
    for (const path of paths) {
      if (route.method === 'DELETE' && path.endsWith('0000-000000000000')) continue;
      const answer = await call(base, route.method, path, { token, body: validBody(route.method, route.url, w.a) });
      judge(tally, route.method, path, 'adresse', answer);
    }
  }
  for (const [label, headers] of [
    ['en-tête de 32 Kio', { 'x-remplissage': 'a'.repeat(32 * 1024) }],
    ['1 000 en-têtes', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-h${i}`, 'a']))],
    ['jeton de 20 Kio', { authorization: `Bearer ${'a'.repeat(20 * 1024)}` }],
  ] as const) {
    const answer = await call(base, 'GET', '/api/sensor', { token: label.startsWith('jeton') ? undefined : token, headers });
    judge(tally, 'GET', '/api/sensor', label, answer);
  }

  // Nothing leaked into the prototypes, and the server still answers.
  const mine = await call(base, 'GET', '/api/user/me', { token });
  tally.check(mine.status === 200 && !mine.text.includes('polluted'), () => `après le fuzz : ${describe('GET', '/api/user/me', mine)}`);
  const health = await call(base, 'GET', '/api/health');
  tally.check(health.status === 200, () => `après le fuzz : ${describe('GET', '/api/health', health)}`);
  return tally;
}

function idOf(url: string, w: World): string {
  if (url.startsWith('/api/emitter/')) return w.a.emitterId;
  if (url.startsWith('/api/sensor/')) return w.a.sensorId;
  if (url.startsWith('/api/sites/')) return w.a.siteId;
  if (url.startsWith('/api/alert-rules/')) return w.a.ruleId;
  if (url.startsWith('/api/alerts/')) return w.a.alertId;
  if (url.startsWith('/api/reports/')) return w.a.reportId;
  return randomUUID();
}
