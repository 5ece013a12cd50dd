import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';

describe('security headers', () => {
  it('are worked out once with the strict policy', () => {
    const headers = securityHeaders();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBeUndefined();
  });
});
