import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, type TestApp, createTestApp, databaseKind } from '../../test/test-app.ts';

interface Device {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

const kinds = [
  { resource: 'emitter', collection: 'emitters', notFound: 'Émetteur introuvable.' },
  { resource: 'sensor', collection: 'sensors', notFound: 'Capteur introuvable.' },
] as const;

const UNKNOWN_ID = '0b5e7d5e-8a7c-4f0e-9d55-3c1d7a3b9f10';

describe.each(kinds.map((kind) => [kind.resource, kind] as const))(
  `/api/%s on ${databaseKind}`,
  (_, { resource, collection, notFound }) => {
    let t: TestApp;
    let alice: TestAccount;
    let colleague: TestAccount;
    let mallory: TestAccount;

    beforeAll(async () => {
      t = await createTestApp();
      alice = await t.createAccount({ organization: `Boutique ${resource} ${Date.now()}` });
      const orgName = (await t.app.inject({ url: '/api/user/me', headers: alice.auth })).json<{
        user: { organization: { name: string } };
      }>().user.organization.name;
      colleague = await t.createAccount({ organization: orgName });
      expect(colleague.organizationId).toBe(alice.organizationId);
      mallory = await t.createAccount();
    });
    afterAll(() => t.close());

    const list = async (account: TestAccount) => {
      const response = await t.app.inject({ url: `/api/${resource}`, headers: account.auth });
      expect(response.statusCode).toBe(200);
      return response.json<Record<string, Device[]>>()[collection] ?? [];
    };
    const create = async (account: TestAccount, name: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/${resource}`, headers: account.auth, payload: { name } as object });
    const created = async (account: TestAccount, name: string) => {
      const response = await create(account, name);
      expect(response.statusCode).toBe(201);
      return response.json<Record<string, Device>>()[resource] as Device;
    };

    it('creates a device with 201, returns it under its singular field and lists it in creation order', async () => {
      const first = await created(alice, 'Frigo laitages');
      const second = await created(alice, 'Chambre froide');
      expect(first).toMatchObject({ name: 'Frigo laitages' });
      expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(first.createdAt).toISOString()).toBe(first.createdAt);
      expect(first.updatedAt).toBe(first.createdAt);
      const ids = (await list(alice)).map((device) => device.id);
      expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(second.id)).toBe(ids.indexOf(first.id) + 1);
    });

    it('reads a device by id under its singular field', async () => {
      const device = await created(alice, 'Porte arrière');
      const response = await t.app.inject({ url: `/api/${resource}/${device.id}`, headers: alice.auth });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ [resource]: device });
    });

    it('renames a device with PUT and moves updatedAt forward', async () => {
      const device = await created(alice, 'Ancien nom');
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/${resource}/${device.id}`,
        headers: alice.auth,
        payload: { name: '  Nouveau nom ' },
      });
      expect(response.statusCode).toBe(200);
      const updated = response.json<Record<string, Device>>()[resource] as Device;
      expect(updated).toMatchObject({ id: device.id, name: 'Nouveau nom', createdAt: device.createdAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(device.updatedAt));
      expect((await list(alice)).find((d) => d.id === device.id)?.name).toBe('Nouveau nom');
    });

    it('deletes a device with 204 and an empty body, then answers 404 for it', async () => {
      const device = await created(alice, 'À supprimer');
      const response = await t.app.inject({ method: 'DELETE', url: `/api/${resource}/${device.id}`, headers: alice.auth });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const again = await t.app.inject({ method: 'DELETE', url: `/api/${resource}/${device.id}`, headers: alice.auth });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: notFound });
      expect((await list(alice)).some((d) => d.id === device.id)).toBe(false);
    });

    it('accepts a DELETE sent with a JSON content type and no body, as the web client sends it', async () => {
      const device = await created(alice, 'Sans corps');
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/${resource}/${device.id}`,
        headers: { ...alice.auth, 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(204);
    });

    it('shares devices between members of one organization', async () => {
      const device = await created(alice, 'Partagé');
      expect((await list(colleague)).map((d) => d.id)).toContain(device.id);
      const rename = await t.app.inject({
        method: 'PUT',
        url: `/api/${resource}/${device.id}`,
        headers: colleague.auth,
        payload: { name: 'Renommé par un collègue' },
      });
      expect(rename.statusCode).toBe(200);
    });

    it("returns 404 for another organization's device on read, update and delete, and changes nothing", async () => {
      const device = await created(alice, 'Confidentiel');
      expect((await list(mallory)).map((d) => d.id)).not.toContain(device.id);
      for (const request of [
        { method: 'GET' as const },
        { method: 'PUT' as const, payload: { name: 'Piraté' } },
        { method: 'DELETE' as const },
      ]) {
        const response = await t.app.inject({ ...request, url: `/api/${resource}/${device.id}`, headers: mallory.auth });
        expect(response.statusCode, request.method).toBe(404);
        expect(response.json()).toEqual({ message: notFound });
      }
      const still = await t.app.inject({ url: `/api/${resource}/${device.id}`, headers: alice.auth });
      expect(still.json<Record<string, Device>>()[resource]?.name).toBe('Confidentiel');
    });

    it('answers an unknown id exactly like a foreign one', async () => {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await t.app.inject({
          method,
          url: `/api/${resource}/${UNKNOWN_ID}`,
          headers: alice.auth,
          ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ message: notFound });
      }
    });

    it('trims names and keeps HTML and emoji exactly as given', async () => {
      const name = '  <img src=x onerror=alert(1)> Frigo 🧊🥶 « crème »  ';
      const device = await created(alice, name);
      expect(device.name).toBe(name.trim());
      const read = await t.app.inject({ url: `/api/${resource}/${device.id}`, headers: alice.auth });
      expect(read.json<Record<string, Device>>()[resource]?.name).toBe(name.trim());
    });

    it('accepts 100 characters, counting an emoji as one, and refuses 101', async () => {
      expect((await create(alice, '🧊'.repeat(100))).statusCode).toBe(201);
      expect((await create(alice, 'a'.repeat(100))).statusCode).toBe(201);
      const tooLong = await create(alice, 'a'.repeat(101));
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json<{ message: string }>().message).toContain('100 caractères');
    });

    describe('refuses bad input with 400 and a French message, leaving the data unchanged', () => {
      const cases: { label: string; payload: string; contentType?: string; status: number; message: RegExp }[] = [
        { label: 'an empty name', payload: JSON.stringify({ name: '' }), status: 400, message: /nom est obligatoire/ },
        { label: 'a blank name', payload: JSON.stringify({ name: '   ' }), status: 400, message: /nom est obligatoire/ },
        { label: 'a missing name', payload: JSON.stringify({}), status: 400, message: /nom/i },
        { label: 'a number as name', payload: JSON.stringify({ name: 42 }), status: 400, message: /chaîne de caractères/ },
        { label: 'null as name', payload: JSON.stringify({ name: null }), status: 400, message: /chaîne de caractères/ },
        { label: 'an unknown field', payload: JSON.stringify({ name: 'ok', admin: true }), status: 400, message: /admin/ },
        { label: 'an array body', payload: JSON.stringify([{ name: 'ok' }]), status: 400, message: /objet/i },
        { label: 'malformed JSON', payload: '{"name": "oups"', status: 400, message: /JSON valide/ },
        { label: 'an empty JSON body', payload: '', status: 400, message: /vide/ },
        { label: 'a prototype-poisoning key', payload: '{"name":"x","__proto__":{"admin":true}}', status: 400, message: /./ },
        { label: 'a text/plain body', payload: 'name=x', contentType: 'text/plain', status: 415, message: /JSON/ },
        { label: 'a form body', payload: 'name=x', contentType: 'application/x-www-form-urlencoded', status: 415, message: /JSON/ },
        { label: 'an oversized body', payload: JSON.stringify({ name: 'x'.repeat(70 * 1024) }), status: 413, message: /volumineux/ },
      ];
      it.each(cases)('$label → $status', async ({ payload, contentType, status, message }) => {
        const before = await list(alice);
        const response = await t.app.inject({
          method: 'POST',
          url: `/api/${resource}`,
          headers: { ...alice.auth, 'content-type': contentType ?? 'application/json' },
          payload,
        });
        expect(response.statusCode).toBe(status);
        expect(response.headers['content-type']).toContain('application/json');
        const answer = response.json<{ message: string }>();
        expect(Object.keys(answer)).toEqual(['message']);
        expect(answer.message).toMatch(message);
        expect(answer.message).not.toMatch(/Error|at \w+ \(|SELECT|stack/);
        expect(await list(alice)).toEqual(before);
      });

      it('refuses a PUT with nothing to change, an unknown field or a bad name, keeping the name', async () => {
        const device = await created(alice, 'Stable');
        for (const payload of [{}, { name: '' }, { name: 7 }, { color: 'red' }, { name: 'x'.repeat(101) }]) {
          const response = await t.app.inject({ method: 'PUT', url: `/api/${resource}/${device.id}`, headers: alice.auth, payload });
          expect(response.statusCode, JSON.stringify(payload)).toBe(400);
          expect(response.json<{ message: string }>().message.length).toBeGreaterThan(5);
        }
        const read = await t.app.inject({ url: `/api/${resource}/${device.id}`, headers: alice.auth });
        expect(read.json<Record<string, Device>>()[resource]?.name).toBe('Stable');
      });

      it('answers 400 for an id that is not a UUID, on read, update and delete', async () => {
        for (const method of ['GET', 'PUT', 'DELETE'] as const) {
          const response = await t.app.inject({
            method,
            url: `/api/${resource}/not-a-uuid`,
            headers: alice.auth,
            ...(method === 'PUT' ? { payload: { name: 'x' } } : {}),
          });
          expect(response.statusCode, method).toBe(400);
          expect(response.json<{ message: string }>().message).toMatch(/UUID/);
        }
      });
    });

    it('answers 401 without a token, before reading the body', async () => {
      const before = await list(alice);
      for (const request of [
        { method: 'GET' as const, url: `/api/${resource}` },
        { method: 'POST' as const, url: `/api/${resource}`, payload: { name: 'x' } },
        { method: 'GET' as const, url: `/api/${resource}/${UNKNOWN_ID}` },
        { method: 'PUT' as const, url: `/api/${resource}/${UNKNOWN_ID}`, payload: { name: 'x' } },
        { method: 'DELETE' as const, url: `/api/${resource}/${UNKNOWN_ID}` },
        { method: 'POST' as const, url: `/api/${resource}`, payload: '{broken', headers: { 'content-type': 'application/json' } },
      ]) {
        const response = await t.app.inject(request);
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
        expect(response.json<{ message: string }>().message).toMatch(/connect/i);
      }
      expect(await list(alice)).toEqual(before);
    });
  },
);
