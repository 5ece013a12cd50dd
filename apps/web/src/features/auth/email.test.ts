import { EMAIL_PATTERN } from '@vigie/contract/values';
import { describe, expect, it } from 'vitest';
import { isValidEmail } from './email';

const samples = [
  ['camille@boutique.fr', true],
  ['c.martin@mail.boutique.fr', true],
  ['camille@boutique', false],
  ['camille boutique@x.fr', false],
  ['camille@@boutique.fr', false],
  ['cam@ille@boutique.fr', false],
  ['@boutique.fr', false],
  ['camille@.fr', false],
  ['', false],
] as const;

describe('isValidEmail', () => {
  it.each(samples)('%s → %s', (email, expected) => {
    expect(isValidEmail(email)).toBe(expected);
  });

  it('agrees with the shared contract pattern', () => {
    for (const [email] of samples) expect(isValidEmail(email)).toBe(EMAIL_PATTERN.test(email));
  });
});
