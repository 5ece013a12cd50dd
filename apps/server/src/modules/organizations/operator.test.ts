import type { OperatorOrganization } from '@vigie/contract';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendTelemetry } from '../../test/device-helpers.ts';
import { mailingTestApp } from '../../test/mailing-test-app.ts';
import { organizationRows } from '../../test/test-dal.ts';
import { body, databaseKind, type TestAccount } from '../../test/test-app.ts';

const PUBLIC_URL = 'https://vigie.example.fr';
const PASSWORD = 'un mot de passe assez long';
const NOT_FOUND = "Cette adresse n'existe pas dans l'API Vigie.";

describe(`the operator level (${databaseKind})`, { timeout: 120_000 }, () => {
  const mailing = mailingTestApp({
    publicUrl: PUBLIC_URL,
    mailFrom: 'Vigie <invitations@vigie.test>',
    start: new Date('2026-03-02T09:00:00Z'),
  });
  const inject = (options: InjectOptions) => mailing.t.app.inject(options);

  let operatorAuth: { authorization: string } | undefined;
  async function operator(): Promise<{ authorization: string }> {
    if (operatorAuth) return operatorAuth;
    const email = `operateur-${crypto.randomUUID()}@example.fr`;
    await mailing.t.app.services.users.createOperator({ email, password: PASSWORD, name: 'Olga Opératrice' });
    const login = await inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    operatorAuth = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };
    return operatorAuth;
  }

  /** A client organization created by the operator, and its first admin signed in through the invitation. */
  async function clientWithAdmin(quotas?: object): Promise<{ organization: OperatorOrganization; admin: TestAccount }> {
    const adminEmail = `admin-${crypto.randomUUID()}@example.fr`;
    const created = await inject({
      method: 'POST',
      url: '/api/operator/organizations',
      headers: await operator(),
      payload: { name: `Client ${crypto.randomUUID()}`, adminEmail, ...(quotas ? { quotas, plan: 'Essentiel' } : {}) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { organization } = body<{ organization: OperatorOrganization }>(created);
    const { token } = await mailing.linkFor(adminEmail, 'invitation');
    const accepted = await inject({
      method: 'POST',
      url: '/api/invitations/accept',
      payload: { token, name: 'Ada Admin', password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const accessToken = accepted.json<{ accessToken: string }>().accessToken;
    return {
      organization,
      admin: {
        id: '',
        email: adminEmail,
        password: PASSWORD,
        organizationId: organization.id,
        token: accessToken,
        auth: { authorization: `Bearer ${accessToken}` },
      },
    };
  }

  const list = async () =>
    body<{ organizations: OperatorOrganization[] }>(await inject({ url: '/api/operator/organizations', headers: await operator() }))
      .organizations;

  it('answers 404 to anyone but an operator: a client admin, a signed-out caller, a forged token', async () => {
    const admin = await mailing.t.createAccount();
    const forged = { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' };
    for (const headers of [admin.auth, {}, forged]) {
      for (const [method, url] of [
        ['GET', '/api/operator/organizations'],
        ['POST', '/api/operator/organizations'],
        ['PUT', `/api/operator/organizations/${admin.organizationId}`],
        ['DELETE', `/api/operator/organizations/${admin.organizationId}`],
      ] as const) {
        const response = await inject({ method, url, headers, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ message: NOT_FOUND });
      }
    }
    const me = body<{ user: { operator: boolean; organization: unknown } }>(await inject({ url: '/api/user/me', headers: admin.auth }));
    expect(me.user).toMatchObject({ operator: false, organization: { id: admin.organizationId } });
  });

  it('gives an operator no organization: /api/user/me says so, organization routes answer 404, never 500', async () => {
    const auth = await operator();
    const me = body<{ user: { operator: boolean; organization: unknown } }>(await inject({ url: '/api/user/me', headers: auth }));
    expect(me.user).toMatchObject({ operator: true, organization: null });
    for (const [method, url] of [
      ['GET', '/api/sites'],
      ['GET', '/api/sensor'],
      ['POST', '/api/sites'],
      ['GET', '/api/members'],
      ['GET', '/api/organization/installation-key'],
      ['GET', '/api/alerts'],
      ['GET', '/api/audit'],
    ] as const) {
      const response = await inject({ method, url, headers: auth, ...(method === 'POST' ? { payload: { name: 'X' } } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // The operators' own organization is no client's: never listed.
    expect((await list()).some((organization) => organization.name === 'Opérateurs Vigie')).toBe(false);
  });

  it('creates an organization whose first admin is invited by e-mail and can accept; without plan or quotas, no limit', async () => {
    const { organization, admin } = await clientWithAdmin();
    expect(organization).toMatchObject({
      status: 'active',
      erasesAt: null,
      plan: null,
      quotas: { sensors: null, members: null, smsPerMonth: null },
    });
    const me = body<{ user: { role: string; organization: { id: string } } }>(await inject({ url: '/api/user/me', headers: admin.auth }));
    expect(me.user).toMatchObject({ role: 'admin', organization: { id: organization.id } });
    // A change answers fresh figures (the list's may be 10 s old).
    const changed = await inject({
      method: 'PUT',
      url: `/api/operator/organizations/${organization.id}`,
      headers: await operator(),
      payload: { plan: 'Pro' },
    });
    expect(changed.json<{ organization: OperatorOrganization }>().organization).toMatchObject({
      plan: 'Pro',
      usage: { sensors: 0, members: 1, readingsThisMonth: 0, smsThisMonth: 0 },
    });
    // A name already taken: 409.
    const again = await inject({
      method: 'POST',
      url: '/api/operator/organizations',
      headers: await operator(),
      payload: { name: organization.name, adminEmail: `autre-${crypto.randomUUID()}@example.fr` },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a sensor or a member past the quota with 409 naming it, also through the installation key, and under 20 parallel creations', async () => {
    const { organization, admin } = await clientWithAdmin({ sensors: 3, members: 2 });
    const createSensor = (name: string) => inject({ method: 'POST', url: '/api/sensor', headers: admin.auth, payload: { name } });
    expect((await createSensor('Chambre froide 1')).statusCode).toBe(201);
    const key = (await inject({ url: '/api/organization/installation-key', headers: admin.auth })).json<{ installationKey: string }>()
      .installationKey;
    const provisioned = await inject({
      method: 'POST',
      url: '/api/devices/provision',
      payload: { installationKey: key, serial: 'SN-QUOTA-1', kind: 'sensor' },
    });
    expect(provisioned.statusCode, provisioned.body).toBe(201);
    // 20 at once for the one place left: exactly one gets it.
    const parallel = await Promise.all(Array.from({ length: 20 }, (_, i) => createSensor(`Vitrine ${i}`)));
    expect(parallel.filter((response) => response.statusCode === 201)).toHaveLength(1);
    const refused = parallel.filter((response) => response.statusCode === 409);
    expect(refused).toHaveLength(19);
    expect(refused[0]?.json<{ message: string }>().message).toContain('capteurs');
    const viaKey = await inject({
      method: 'POST',
      url: '/api/devices/provision',
      payload: { installationKey: key, serial: 'SN-QUOTA-2', kind: 'sensor' },
    });
    expect(viaKey.statusCode).toBe(409);
    expect(viaKey.json<{ message: string }>().message).toContain('capteurs');

    // Members: the admin plus one invitation fill a quota of 2.
    const invite = (email: string) =>
      inject({ method: 'POST', url: '/api/invitations', headers: admin.auth, payload: { email, role: 'viewer' } });
    expect((await invite(`membre-${crypto.randomUUID()}@example.fr`)).statusCode).toBe(201);
    const past = await invite(`membre-${crypto.randomUUID()}@example.fr`);
    expect(past.statusCode).toBe(409);
    expect(past.json<{ message: string }>().message).toContain('membres');

    const listed = (await list()).find((entry) => entry.id === organization.id);
    expect(listed).toMatchObject({ plan: 'Essentiel', quotas: { sensors: 3, members: 2, smsPerMonth: null } });

    // Raised by the operator: the next one passes.
    const raised = await inject({
      method: 'PUT',
      url: `/api/operator/organizations/${organization.id}`,
      headers: await operator(),
      payload: { quotas: { sensors: 4 } },
    });
    expect(raised.json<{ organization: OperatorOrganization }>().organization).toMatchObject({
      quotas: { sensors: 4, members: 2, smsPerMonth: null },
      usage: { sensors: 3, members: 1 },
    });
    expect((await createSensor('Réserve')).statusCode).toBe(201);
  });

  it('suspends: reads work, changes answer 403, telemetry is still stored; reactivation restores writes', async () => {
    const { organization, admin } = await clientWithAdmin();
    const key = (await inject({ url: '/api/organization/installation-key', headers: admin.auth })).json<{ installationKey: string }>()
      .installationKey;
    const device = (
      await inject({ method: 'POST', url: '/api/devices/provision', payload: { installationKey: key, serial: 'SN-SUSP', kind: 'sensor' } })
    ).json<{ deviceId: string; accessToken: string }>();
    const suspend = await inject({
      method: 'PUT',
      url: `/api/operator/organizations/${organization.id}`,
      headers: await operator(),
      payload: { status: 'suspended' },
    });
    expect(suspend.json<{ organization: OperatorOrganization }>().organization.status).toBe('suspended');

    const write = await inject({ method: 'POST', url: '/api/sites', headers: admin.auth, payload: { name: 'Nouveau magasin' } });
    expect(write.statusCode).toBe(403);
    expect(write.json<{ message: string }>().message).toMatch(/^Organisation suspendue : /);
    expect((await inject({ url: '/api/sites', headers: admin.auth })).statusCode).toBe(200);
    expect((await inject({ url: '/api/sensor', headers: admin.auth })).statusCode).toBe(200);
    // Signing in and out still work.
    expect((await inject({ method: 'POST', url: '/api/auth/login', payload: { email: admin.email, password: PASSWORD } })).statusCode).toBe(
      200,
    );

    const sent = await sendTelemetry(mailing.t, device.accessToken, { ts: mailing.clock.toISOString(), values: { temperature: 4.2 } });
    expect(sent.statusCode, sent.body).toBe(202);
    const readings = await inject({
      url: `/api/sensor/${device.deviceId}/readings?from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z`,
      headers: admin.auth,
    });
    expect(readings.statusCode).toBe(200);
    expect(JSON.stringify(readings.json())).toContain('4.2');

    await inject({
      method: 'PUT',
      url: `/api/operator/organizations/${organization.id}`,
      headers: await operator(),
      payload: { status: 'active' },
    });
    expect(
      (await inject({ method: 'POST', url: '/api/sites', headers: admin.auth, payload: { name: 'Nouveau magasin' } })).statusCode,
    ).toBe(201);
  });

  it('schedules the erasure in 30 days, cancellable; then the job deletes every row of it, once, and leaves the others', async () => {
    const keep = await clientWithAdmin();
    const { organization, admin } = await clientWithAdmin();
    const deviceIds: string[] = [];
    for (const { admin: owner } of [keep, { admin }]) {
      await inject({ method: 'POST', url: '/api/sites', headers: owner.auth, payload: { name: 'Magasin' } });
      const key = (await inject({ url: '/api/organization/installation-key', headers: owner.auth })).json<{ installationKey: string }>()
        .installationKey;
      const device = (
        await inject({
          method: 'POST',
          url: '/api/devices/provision',
          payload: { installationKey: key, serial: `SN-${crypto.randomUUID()}`, kind: 'sensor' },
        })
      ).json<{ deviceId: string; accessToken: string }>();
      const sent = await sendTelemetry(mailing.t, device.accessToken, [
        { ts: new Date(mailing.clock.getTime() - 86_400_000).toISOString(), values: { temperature: 3.9 } },
        { ts: mailing.clock.toISOString(), values: { temperature: 4.1 } },
      ]);
      expect(sent.statusCode).toBe(202);
      if (owner === admin) deviceIds.push(device.deviceId);
      await inject({
        method: 'POST',
        url: '/api/invitations',
        headers: owner.auth,
        payload: { email: `m-${crypto.randomUUID()}@example.fr`, role: 'viewer' },
      });
    }
    const keptBefore = await organizationRows(mailing.t, keep.organization.id);
    expect(Object.keys(await organizationRows(mailing.t, organization.id, deviceIds))).toEqual(
      expect.arrayContaining(['users', 'sensors', 'sites', 'readings']),
    );

    const erase = () => inject({ method: 'DELETE', url: `/api/operator/organizations/${organization.id}`, headers: operatorAuth ?? {} });
    await operator();
    const scheduled = await erase();
    expect(scheduled.statusCode).toBe(202);
    const asked = scheduled.json<{ organization: OperatorOrganization }>().organization;
    expect(asked.status).toBe('erasing');
    expect(asked.erasesAt).toBe(new Date(mailing.clock.getTime() + 30 * 86_400_000).toISOString());
    // Its people change nothing meanwhile.
    expect((await inject({ method: 'POST', url: '/api/sites', headers: admin.auth, payload: { name: 'X' } })).statusCode).toBe(403);

    const cancelled = await inject({
      method: 'PUT',
      url: `/api/operator/organizations/${organization.id}`,
      headers: await operator(),
      payload: { status: 'active' },
    });
    expect(cancelled.json<{ organization: OperatorOrganization }>().organization).toMatchObject({ status: 'active', erasesAt: null });
    expect((await erase()).statusCode).toBe(202);

    const jobs = mailing.t.app.services.modules.organizations.jobs;
    // Not yet due.
    mailing.clock = new Date(mailing.clock.getTime() + 29 * 86_400_000);
    expect(await jobs.eraseDue()).toEqual([]);
    mailing.clock = new Date(mailing.clock.getTime() + 1 * 86_400_000 + 1_000);
    // Two instances' jobs at once: one erases.
    const [first, second] = await Promise.all([jobs.eraseDue(), jobs.eraseDue()]);
    expect([...first, ...second]).toEqual([organization.id]);

    expect(await organizationRows(mailing.t, organization.id, deviceIds)).toEqual({});
    expect(await organizationRows(mailing.t, keep.organization.id)).toEqual(keptBefore);
    expect((await list()).some((entry) => entry.id === organization.id)).toBe(false);

    const trail = await mailing.t.app.services.modules.organizations.operator.audit(organization.id);
    expect(trail.map((entry) => entry.action)).toEqual([
      'organization.created',
      'organization.erasure-scheduled',
      'organization.erasure-cancelled',
      'organization.erasure-scheduled',
      'organization.erased',
    ]);
    const erased = trail.at(-1);
    expect(erased?.operatorEmail).toMatch(/^operateur-/);
    expect((erased?.details as { rows: number }).rows).toBeGreaterThan(5);
    expect(await jobs.eraseDue()).toEqual([]);
  });
});
