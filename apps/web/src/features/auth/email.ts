// The same rule as EMAIL_PATTERN in @vigie/contract, kept here so that the login screen does
// not pull the schema library into its bundle (email.test.ts checks they agree).
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** No whitespace, exactly one @, then text, a dot and text. */
export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
