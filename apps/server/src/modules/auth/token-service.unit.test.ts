import { describe, expect, it } from 'vitest';
import { createTokenService } from './token-service.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';

describe('token service', () => {
  it('still refuses a remembered token once it has expired, and never remembers a forged one', async () => {
    let clock = Date.parse('2026-11-26T08:00:00Z');
    const tokens = createTokenService('un secret de test assez long pour HS256', () => clock);
    const token = await tokens.issue(USER, SESSION, { lifetimeSeconds: 60, idleSeconds: null });
    expect(await tokens.read(token)).toMatchObject({ userId: USER, sessionId: SESSION });
    expect(await tokens.read(token)).toMatchObject({ userId: USER });
    clock += 60_000;
    expect(await tokens.read(token)).toBeNull();

    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await tokens.read(forged)).toBeNull();
    expect(await tokens.read(forged)).toBeNull();
    // Another key never accepts it, remembered elsewhere or not.
    expect(await createTokenService('une autre clé, tout aussi longue', () => clock - 30_000).read(token)).toBeNull();
  });
});
