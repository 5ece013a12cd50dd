import { describe, expect, it } from 'vitest';
import { formatQuantity, parseDecimal, quantityOf } from './quantity-format';

describe('parseDecimal', () => {
  it('reads a number as it is typed, French or not', () => {
    expect(parseDecimal('9,4')).toBe(9.4);
    expect(parseDecimal(' 9.4 ')).toBe(9.4);
    expect(parseDecimal('−18')).toBe(-18);
    expect(parseDecimal('-0,5')).toBe(-0.5);
    expect(parseDecimal('1 200,5')).toBe(1200.5);
    expect(parseDecimal('12')).toBe(12);
  });

  it('is NaN for what is not a number', () => {
    for (const text of ['', '  ', 'douze', '9,4,1', '9.4°', '1e3', ',']) expect(parseDecimal(text)).toBeNaN();
  });
});

describe('formatQuantity and quantityOf', () => {
  it('writes the quantity in French, with the unit after a narrow no-break space', () => {
    expect(formatQuantity({ value: 12, unit: 'kg' })).toBe('12\u202Fkg');
    expect(formatQuantity({ value: 1.5, unit: 'L' })).toBe('1,5\u202FL');
    expect(formatQuantity({ value: 1, unit: 'pièces' })).toBe('1\u202Fpièce');
    expect(formatQuantity({ value: 3, unit: 'colis' })).toBe('3\u202Fcolis');
  });

  it('elides « de » before a vowel', () => {
    expect(quantityOf({ value: 12, unit: 'kg' }, 'Yaourts nature')).toBe('12\u202Fkg de Yaourts nature');
    expect(quantityOf({ value: 2, unit: 'pièces' }, 'Emmental')).toBe('2\u202Fpièces d’Emmental');
  });
});
