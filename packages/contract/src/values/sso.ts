/**
 * docs/api.md, Authentification unique: why a sign-in through single sign-on did not finish. The
 * callback sends the browser back to `/login?sso=<reason>` and the page shows the sentence: the
 * address carries a reason, never a text that someone else could write into the page.
 */
export const SSO_FAILURES = {
  state: 'Cette connexion par authentification unique a expiré ou a déjà servi : recommencez.',
  denied: 'Le fournisseur d’identité n’a pas autorisé la connexion.',
  provider:
    'Le fournisseur d’identité n’a pas pu être joint, ou sa réponse n’est pas valable : réessayez, ou prévenez votre administrateur.',
  email: 'Le fournisseur d’identité n’a pas donné d’adresse e-mail vérifiée.',
  account: 'Cette adresse n’est pas autorisée à se connecter à cette organisation : demandez une invitation à votre administrateur.',
  domain: 'Aucune authentification unique n’est configurée pour cette adresse.',
  code: 'Ce lien de connexion n’est plus valable : recommencez la connexion.',
} as const;
export type SsoFailure = keyof typeof SSO_FAILURES;

/** The sentence of a reason read from the address, or null when it names none. */
export function ssoFailureMessage(reason: string | null | undefined): string | null {
  return reason && Object.hasOwn(SSO_FAILURES, reason) ? SSO_FAILURES[reason as SsoFailure] : null;
}
