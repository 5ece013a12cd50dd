/**
 * Family 8 — scope × role × route, from the catalogue. In organization A, a new shop S and a member
 * of each role who sees S only; every member route is called by each of them with the ids of A's
 * fixtures, which are all outside S. What a route's scope rule says decides what is expected:
 * - `resource`: exactly what organization B's admin gets for the same path (the 404 and its
 *   message), or the 403 of the role when the role may not call it;
 * - `organization`: 403, « Seul un membre qui voit toute l’organisation… » (or the role's 403);
 * - `sites`, `shared`, `own`: never a line of A's fixtures in the answer, never a 5xx, and a change
 *   that names a thing outside S is refused.
 * At the end A's fixtures are unchanged.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, endpointKey, ROLES, type Role } from '@vigie/contract';
import { type Answer, call, describe, ok, Tally, waitFor } from './support.ts';
import { validBody } from './roles.ts';
import { PASSWORD, type World } from './world.ts';

type Member = { role: Role; token: string };

async function scopedMember(w: World, siteId: string, role: Role): Promise<Member> {
  const email = `portee-${role}-${randomUUID().slice(0, 6)}@attaque.example`;
  await ok(w.server.base, 'POST', '/api/invitations', { token: w.adminA.token, body: { email, role, scope: { siteIds: [siteId] } } });
  let secret: string | undefined;
  await waitFor(`l'invitation de ${email}`, async () => {
    const mail = w.smtp.received.find((m) => m.text?.includes('/invitation#') && JSON.stringify(m.to).includes(email));
    secret = mail?.text?.match(/\/invitation#([A-Za-z0-9_-]+)/)?.[1];
    return secret !== undefined;
  });
  if (!secret) throw new Error(`Aucun e-mail d'invitation pour ${email}`);
  const { accessToken } = await ok<{ accessToken: string }>(w.server.base, 'POST', '/api/invitations/accept', {
    body: { token: secret, name: `Portée ${role}`, password: PASSWORD },
  });
  return { role, token: accessToken };
}

/** The `:id` of a route, a fixture of A (outside S); other parameters, ids of nothing. */
function pathFor(url: string, w: World): string {
  const f = w.a;
  const id = url.startsWith('/api/emitter/')
    ? f.emitterId
    : url.startsWith('/api/sensor/')
      ? f.sensorId
      : url.startsWith('/api/sites/')
        ? f.siteId
        : url.startsWith('/api/alert-rules/')
          ? f.ruleId
          : url.startsWith('/api/alerts/')
            ? f.alertId
            : url.startsWith('/api/reports/')
              ? f.reportId
              : url.startsWith('/api/invitations/')
                ? f.invitationId
                : url.startsWith('/api/members/')
                  ? w.viewerA.id
                  : randomUUID();
  return url.replace(':id', id).replace(/:[A-Za-z]+/g, () => randomUUID());
}

/** The stream never ends and the session routes end the member's session: they are left to their own families. */
const SKIPPED = new Set(['GET /api/stream', 'POST /api/auth/logout', 'POST /api/auth/logout-all']);

export async function scopeMatrix(w: World): Promise<Tally> {
  const tally = new Tally();
  const base = w.server.base;
  const { site } = await ok<{ site: { id: string } }>(base, 'POST', '/api/sites', { token: w.adminA.token, body: { name: 'Magasin S' } });
  const members: Member[] = [];
  for (const role of ROLES) members.push(await scopedMember(w, site.id, role));
  const outside = [w.a.siteId, w.a.sensorId, w.a.ruleId, w.a.alertId, w.a.reportId, w.a.emitterId];
  const leaks = (answer: Answer) => outside.filter((id) => answer.text.includes(id));

  // Refusals first, destructive last: the fixtures must stay for every later route.
  const routes = ENDPOINTS.filter((endpoint) => endpoint.access.kind === 'members' && !SKIPPED.has(endpointKey(endpoint))).sort(
    (x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'),
  );
  let probes = 0;
  for (const endpoint of routes) {
    const access = endpoint.access;
    if (access.kind !== 'members') continue;
    const key = endpointKey(endpoint);
    const path = pathFor(endpoint.path, w);
    const body = validBody(endpoint.method, endpoint.path, w.a);
    const asB = access.scope.kind === 'resource' ? await call(base, endpoint.method, path, { token: w.adminB.token, body }) : undefined;
    for (const member of members) {
      const answer = await call(base, endpoint.method, path, { token: member.token, body });
      probes += 1;
      const who = `${member.role} portée S, ${access.scope.kind}`;
      if (answer.status === 0 || answer.status >= 500) {
        tally.check(false, () => `${who} : ${describe(endpoint.method, path, answer)}`);
        continue;
      }
      if (!access.roles.includes(member.role)) {
        tally.check(answer.status === 403, () => `${who} : ${describe(endpoint.method, path, answer)} (403 du rôle attendu)`);
        continue;
      }
      switch (access.scope.kind) {
        case 'resource':
          tally.check(
            answer.status === asB?.status && answer.text === asB.text,
            () =>
              `${who} : ${describe(endpoint.method, path, answer)} (comme une autre organisation : ${asB?.status} ${asB?.text.slice(0, 80)})`,
          );
          break;
        case 'organization':
          tally.check(
            answer.status === 403 && answer.text.includes('Seul un membre qui voit toute l’organisation'),
            () => `${who} : ${describe(endpoint.method, path, answer)} (403 attendu)`,
          );
          break;
        default: {
          const shown = leaks(answer);
          const namesOutside =
            JSON.stringify(body ?? {})
              .match(/[0-9a-f-]{36}/g)
              ?.some((id) => outside.includes(id)) ?? false;
          tally.check(
            shown.length === 0 && !(namesOutside && answer.status >= 200 && answer.status < 300),
            () => `${who} : ${key} → ${answer.status}${shown.length ? `, montre ${shown.join(', ')} hors de S` : ', accepté hors de S'}`,
          );
        }
      }
    }
  }
  // Lists filtered by A's ids: nothing of them either.
  for (const path of [
    `/api/sensor?siteId=${w.a.siteId}`,
    `/api/emitter?siteId=${w.a.siteId}`,
    `/api/alert-rules?sensorId=${w.a.sensorId}`,
    `/api/alerts?siteId=${w.a.siteId}`,
    `/api/reports?siteId=${w.a.siteId}`,
    `/api/insights/watch?siteId=${w.a.siteId}`,
    `/api/checks?siteId=${w.a.siteId}`,
  ]) {
    for (const member of members) {
      const answer = await call(base, 'GET', path, { token: member.token });
      probes += 1;
      tally.check(answer.status < 500 && leaks(answer).length === 0, () => `${member.role} portée S : GET ${path} → ${answer.status}`);
    }
  }
  for (const path of [
    `/api/sensor/${w.a.sensorId}`,
    `/api/sites/${w.a.siteId}`,
    `/api/alert-rules/${w.a.ruleId}`,
    `/api/emitter/${w.a.emitterId}`,
  ]) {
    const answer = await call(base, 'GET', path, { token: w.adminA.token });
    tally.check(
      answer.status === 200 && !answer.text.includes('par l’attaque'),
      () => `après les membres de S : ${describe('GET', path, answer)}`,
    );
  }
  tally.figures.push({ label: 'appels portée × rôle × route', value: `${probes} sur ${routes.length} routes`, ok: true });
  return tally;
}
