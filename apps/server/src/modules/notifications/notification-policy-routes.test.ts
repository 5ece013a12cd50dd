import { randomUUID } from 'node:crypto';
import type { AuditEvent, NotificationPolicy, Role } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../test/test-dal.ts';
import { createTestApp, databaseKind, type TestAccount, type TestApp } from '../../test/test-app.ts';

/** A public address written as such: no DNS answer is needed to accept it. */
const PUBLIC_HOOK = 'https://93.184.215.14/hooks/vigie';

describe(`notification policy (${databaseKind})`, () => {
  let t: TestApp;
  const accounts = {} as Record<Role, TestAccount>;

  beforeAll(async () => {
    t = await createTestApp();
    const organization = `Politique ${randomUUID()}`;
    for (const role of ['admin', 'manager', 'viewer'] as const) {
      accounts[role] = await t.createAccount({ organization, name: `Compte ${role}` });
      await setRole(t, accounts[role].id, role);
    }
  });
  afterAll(() => t.close());

  const read = async (role: Role) => {
    const response = await t.app.inject({ url: '/api/notification-policy', headers: accounts[role].auth });
    expect(response.statusCode).toBe(200);
    return response.json<{ policy: NotificationPolicy }>().policy;
  };
  const update = (role: Role, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/notification-policy', headers: accounts[role].auth, payload });

  describe('the webhook signing secret', () => {
    it('is shown to admins who see the whole organization only, and never written into the audit trail', async () => {
      const saved = await update('manager', { webhookUrl: PUBLIC_HOOK, repeatMinutes: 30 });
      expect(saved.statusCode).toBe(200);
      // A manager may set the address; its secret is for an admin to read and give the receiver.
      expect(saved.json<{ policy: NotificationPolicy }>().policy.webhookSecret).toBeNull();
      const secret = (await read('admin')).webhookSecret;
      expect(secret).toMatch(/^[\w-]{40,}$/);
      expect((await read('manager')).webhookSecret).toBeNull();
      const seenByViewer = await read('viewer');
      expect(seenByViewer).toMatchObject({ webhookUrl: PUBLIC_HOOK, webhookSecret: null, repeatMinutes: 30 });

      // A new address renews the secret: neither the old nor the new one reaches the trail, nor
      // a password written into the address.
      const renewed = await update('admin', { webhookUrl: 'https://vigie:motdepasse@93.184.215.14/hooks/v2' });
      const second = renewed.json<{ policy: NotificationPolicy }>().policy.webhookSecret;
      expect(second).toMatch(/^[\w-]{40,}$/);
      expect(second).not.toBe(secret);
      expect(await read('viewer')).toMatchObject({ webhookUrl: 'https://vigie:***@93.184.215.14/hooks/v2', webhookSecret: null });
      expect((await read('manager')).webhookUrl).toBe('https://vigie:***@93.184.215.14/hooks/v2');
      expect((await read('admin')).webhookUrl).toBe('https://vigie:motdepasse@93.184.215.14/hooks/v2');
      // The manager's form sends back the address as they read it: it stays, with its password and secret.
      const resent = await update('manager', { webhookUrl: 'https://vigie:***@93.184.215.14/hooks/v2', repeatMinutes: 45 });
      expect(resent.statusCode).toBe(200);
      expect(await read('admin')).toMatchObject({ webhookUrl: 'https://vigie:motdepasse@93.184.215.14/hooks/v2', webhookSecret: second });
      await update('admin', { webhookUrl: null });

      const trail = await t.app.inject({ url: '/api/audit?action=notification_policy.updated', headers: accounts.admin.auth });
      const events = trail.json<{ events: AuditEvent[] }>().events;
      expect(events).toHaveLength(4);
      const csv = (await t.app.inject({ url: '/api/audit.csv?action=notification_policy.updated', headers: accounts.admin.auth })).body;
      for (const value of [secret, second, 'motdepasse']) {
        expect(trail.body).not.toContain(value);
        expect(csv).not.toContain(value);
      }
      // What the trail still says: the address changed, and with it the secret.
      const first = events.at(-1)?.details;
      expect(first).toMatchObject({ webhookUrl: { from: null, to: PUBLIC_HOOK }, repeatMinutes: { from: 60, to: 30 } });
      expect(first?.['webhookSecret']).toBe('renouvelé');
      // The address sent back as read changed nothing of it.
      expect(events[1]?.details).toEqual({ repeatMinutes: { from: 30, to: 45 } });
      expect(events[2]?.details).toMatchObject({
        webhookUrl: { from: PUBLIC_HOOK, to: 'https://vigie:***@93.184.215.14/hooks/v2' },
        webhookSecret: 'renouvelé',
      });
      expect(events[0]?.details).toMatchObject({
        webhookUrl: { from: 'https://vigie:***@93.184.215.14/hooks/v2', to: null },
        webhookSecret: 'retiré',
      });
    });
  });

  describe('the webhook address', () => {
    // Loopback, private, link-local (cloud metadata), unspecified and reserved addresses, in every
    // spelling a URL allows: numbers, octal, hexadecimal, IPv4 inside IPv6 (compatible, mapped,
    // NAT64, 6to4), and a name that resolves to loopback.
    const refused = [
      'http://[::127.0.0.1]/x',
      'http://[::7f00:1]:8080/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'http://169.254.169.254/latest/meta-data',
      'http://[64:ff9b::169.254.169.254]/x',
      'http://[2002:7f00:1::]/x',
      'http://[2002:a00:1::1]/x',
      'http://[::]/x',
      'http://0.0.0.0:8080/x',
      'http://2130706433/x',
      'http://0x7f.1/x',
      'http://0177.0.0.1/x',
      'http://127.0.0.1./x',
      'http://10.1.2.3/x',
      'http://[fd00::1]/x',
      'http://[fe80::1]/x',
      'http://100.64.0.1/x',
      'http://198.51.100.7/x',
      'http://localhost:8080/x',
    ];

    it('refuses a private, local or reserved target when it is configured, in French, and keeps the address in force', async () => {
      expect((await update('manager', { webhookUrl: PUBLIC_HOOK })).statusCode).toBe(200);
      const before = await read('manager');
      for (const webhookUrl of refused) {
        const response = await update('manager', { webhookUrl, repeatMinutes: 15 });
        expect(response.statusCode, webhookUrl).toBe(400);
        expect(response.json<{ message: string }>().message, webhookUrl).toBe(
          'Adresse refusée : un webhook ne peut viser ni la machine elle-même, ni un réseau privé ou local, ni une adresse réservée.',
        );
      }
      const unknown = await update('manager', { webhookUrl: 'https://vigie-webhook.invalid/x' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toBe(
        'Le nom « vigie-webhook.invalid » ne se résout pas : vérifiez l’adresse du webhook.',
      );
      expect(await read('manager')).toEqual(before);
    });

    it('accepts a public address, in IPv4, IPv6 or through NAT64', async () => {
      for (const webhookUrl of [PUBLIC_HOOK, 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/x', 'https://[64:ff9b::5db8:d70e]/x']) {
        const response = await update('manager', { webhookUrl });
        expect(response.statusCode, webhookUrl).toBe(200);
        expect(response.json<{ policy: NotificationPolicy }>().policy.webhookUrl).toBe(webhookUrl);
      }
      await update('manager', { webhookUrl: null });
    });

    it('accepts a private target when the operator allows it (WEBHOOK_ALLOW_PRIVATE=true)', async () => {
      const allowing = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
      try {
        const admin = await allowing.createAccount();
        const response = await allowing.app.inject({
          method: 'PUT',
          url: '/api/notification-policy',
          headers: admin.auth,
          payload: { webhookUrl: 'http://[::127.0.0.1]:8080/x' },
        });
        expect(response.statusCode).toBe(200);
      } finally {
        await allowing.close();
      }
    });
  });
});
