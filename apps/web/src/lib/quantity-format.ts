import type { Quantity } from '@vigie/contract';
import { formatNumber } from './measure-format';

/** Quantities and numbers typed by hand, as the HACCP record reads and writes them. */

const NNBSP = '\u202F';

/**
 * A number typed in a field, French or not: « 9,4 », « 9.4 », « −18 », « 1 200,5 ». NaN when
 * the text is empty or is not a number.
 */
export function parseDecimal(text: string): number {
  const plain = text
    .trim()
    .replace(/[\s\u00A0\u202F]/g, '')
    .replace(/^[\u2212\u2013]/, '-')
    .replace(',', '.');
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(plain)) return Number.NaN;
  return Number(plain);
}

/** « 12 kg », « 1,5 L », « 1 pièce », « 3 pièces », « 3 colis ». */
export function formatQuantity({ value, unit }: Quantity): string {
  const shown = unit === 'pièces' && Math.abs(value) < 2 ? 'pièce' : unit;
  return `${formatNumber(value, 3)}${NNBSP}${shown}`;
}

/** « de Yaourts nature », « d’Emmental »: a product after a quantity, elided before a vowel. */
export function ofProduct(product: string): string {
  const name = product.trim();
  return /^[aeiouàâäéèêëîïôöùûüœæ]/i.test(name) ? `d’${name}` : `de ${name}`;
}

/** « 12 kg de Yaourts nature ». */
export function quantityOf(quantity: Quantity, product: string): string {
  return `${formatQuantity(quantity)} ${ofProduct(product)}`;
}
