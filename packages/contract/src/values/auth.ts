/** Accounts' plain values (no zod): what a browser bundle may import without the schemas. */
export const PASSWORD_MIN_LENGTH = 8;
/** Generous bound: long passphrases are welcome, megabyte payloads are not. */
export const PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;
/** The same rule as the login form: no whitespace, exactly one @, a dot in the domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** docs/api.md, Rôles: admin (everything, members included), manager (devices, sites, rules, alerts, reports), viewer (reads, acknowledges). */
export const ROLES = ['admin', 'manager', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** The French name of each role, as screens, e-mails and signed reports print it. */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  admin: 'Administrateur',
  manager: 'Responsable',
  viewer: 'Lecteur',
};
/** « Mot de passe oublié ? »: the answer is the same whether an account uses the address or not. */
export const PASSWORD_RESET_REQUESTED =
  'Si un compte existe pour cette adresse, un e-mail vient de lui être envoyé avec un lien valable 1 heure.';
