import type { User } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { createAccountCache } from './account-cache.ts';

const user = (role: User['role']): User => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Camille',
  email: 'camille@example.fr',
  role,
  organization: { id: '22222222-2222-4222-8222-222222222222', name: 'Épicerie' },
});

function setup() {
  let clock = 1_000_000;
  const cache = createAccountCache({ now: () => clock, ttlMs: 5000, maxEntries: 2 });
  return { cache, advance: (ms: number) => (clock += ms), now: () => clock };
}

describe('account cache', () => {
  it('answers from memory while fresh, reads again once stale or forgotten', async () => {
    const { cache, advance } = setup();
    let reads = 0;
    let stored = user('admin');
    const load = async () => {
      reads += 1;
      return stored;
    };
    expect((await cache.user(stored.id, load))?.role).toBe('admin');
    expect((await cache.user(stored.id, load))?.role).toBe('admin');
    expect(reads).toBe(1);

    stored = user('viewer');
    cache.forgetUser(stored.id);
    expect((await cache.user(stored.id, load))?.role).toBe('viewer');
    expect(reads).toBe(2);

    advance(5000);
    await cache.user(stored.id, load);
    expect(reads).toBe(3);
    cache.forgetOrganization(stored.organization.id);
    await cache.user(stored.id, load);
    expect(reads).toBe(4);
  });

  it('does not keep a read that was under way when the change was forgotten', async () => {
    const { cache } = setup();
    let release!: (value: User) => void;
    const slow = cache.user(user('admin').id, () => new Promise<User>((resolve) => (release = resolve)));
    // The role changes while the old row is on its way.
    cache.forgetUser(user('admin').id);
    release(user('admin'));
    expect((await slow)?.role).toBe('admin');
    expect((await cache.user(user('admin').id, async () => user('viewer')))?.role).toBe('viewer');
  });

  it('refuses a session past its expiry or forgotten, without reading it again', async () => {
    const { cache, now, advance } = setup();
    const sessionId = '33333333-3333-4333-8333-333333333333';
    const userId = user('admin').id;
    let reads = 0;
    const load = async () => {
      reads += 1;
      return new Date(now() + 3000);
    };
    expect(await cache.sessionExpiry(sessionId, userId, now(), load)).toBe(now() + 3000);
    advance(2000);
    expect(await cache.sessionExpiry(sessionId, userId, now(), load)).not.toBeNull();
    advance(1500);
    expect(await cache.sessionExpiry(sessionId, userId, now(), load)).toBeNull();
    expect(reads).toBe(1);

    // Another user's token naming this session is never answered from memory.
    await cache.sessionExpiry(sessionId, '44444444-4444-4444-8444-444444444444', now(), async () => null);
    expect(reads).toBe(1);

    cache.forgetSession(sessionId);
    expect(await cache.sessionExpiry(sessionId, userId, now(), async () => null)).toBeNull();
  });

  it('keeps at most maxEntries, the oldest going first', async () => {
    const { cache } = setup();
    let reads = 0;
    const load = (id: string) => async () => {
      reads += 1;
      return { ...user('admin'), id };
    };
    for (const id of ['a', 'b', 'c']) await cache.user(id, load(id));
    await cache.user('a', load('a'));
    expect(reads).toBe(4);
  });
});
