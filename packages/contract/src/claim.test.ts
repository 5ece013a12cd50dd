import { describe, expect, it } from 'vitest';
import { claimRequestSchema, claimUri, parseClaimUri } from './claim.ts';

describe('claim label', () => {
  it('reads back the QR text it writes, and nothing else', () => {
    expect(parseClaimUri(claimUri('VIG-12 34', 'ABC&DEF'))).toEqual({ serial: 'VIG-12 34', claimCode: 'ABC&DEF' });
    expect(parseClaimUri('https://vigie.example/dashboard')).toBeNull();
    expect(parseClaimUri('vigie:claim?serial=VIG-1')).toBeNull();
  });

  it('takes the code as printed: spaces, dashes and case do not matter', () => {
    const parsed = claimRequestSchema.parse({ serial: ' VIG-1 ', claimCode: 'abcd-efgh jklm' });
    expect(parsed).toEqual({ serial: 'VIG-1', claimCode: 'ABCDEFGHJKLM' });
    const short = claimRequestSchema.safeParse({ serial: 'VIG-1', claimCode: 'ab' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe('Le code de l’étiquette compte au moins 6 caractères.');
    expect(claimRequestSchema.safeParse({ serial: 'VIG-1', claimCode: 'ABCDEF', preset: 'fridge' }).success).toBe(false);
  });
});
