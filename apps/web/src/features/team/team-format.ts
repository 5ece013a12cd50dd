import type { Member } from '@vigie/contract';
import { formatDateAt } from '@vigie/contract/clock';

// The contract's EMAIL_PATTERN and PASSWORD_MIN_LENGTH, restated: a value import would bring zod into the page.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MAX_LENGTH = 100;

/** The French reason an address is refused before it is sent, or null. */
export function emailError(email: string): string | null {
  if (!email.trim()) return 'L’adresse e-mail est obligatoire.';
  if (!EMAIL_PATTERN.test(email.trim())) return 'L’adresse e-mail n’est pas valide (exemple\u202F: prenom.nom@entreprise.fr).';
  return null;
}

/** How a member is named in labels and messages: their name, else their address. */
export function memberLabel(member: Pick<Member, 'name' | 'email'>): string {
  return member.name?.trim() || member.email;
}

/** « Expire le 30 novembre 2026 à 14 h 05 », or « Expirée » once the date is past. */
export function expiryText(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return '';
  if (at <= now) return 'Expirée';
  return `Expire le ${formatDateAt(at)}`;
}

export const isExpired = (expiresAt: string, now: number) => Date.parse(expiresAt) <= now;
