import { describe, expect, it } from 'vitest';
import { errorMessage, withFallbackMessage } from './errors';

describe('errorMessage', () => {
  it('uses the error text when there is one', () => {
    expect(errorMessage(new Error('Quota atteint'), 'Échec de la création')).toBe('Quota atteint');
  });

  it.each([new Error(''), new Error('   '), null, undefined, 42])('falls back for %s', (error) => {
    expect(errorMessage(error, 'Échec de la suppression')).toBe('Échec de la suppression');
  });
});

describe('withFallbackMessage', () => {
  it('keeps a meaningful error', async () => {
    await expect(withFallbackMessage(Promise.reject(new Error('Nom invalide')), 'Error creating transmitter')).rejects.toThrow(
      'Nom invalide',
    );
  });

  it('replaces an empty message with the fallback', async () => {
    await expect(withFallbackMessage(Promise.reject(new Error('')), 'Error loading sensors')).rejects.toThrow('Error loading sensors');
  });

  it("names a thrown non-error 'Unexpected error'", async () => {
    await expect(withFallbackMessage(Promise.reject(42), 'Error loading sensors')).rejects.toThrow('Unexpected error');
  });

  it('passes the value through on success', async () => {
    await expect(withFallbackMessage(Promise.resolve(7), 'x')).resolves.toBe(7);
  });
});
