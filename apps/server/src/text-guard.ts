/**
 * Text that no field may hold: the NUL character (PostgreSQL refuses it in text, so it used to
 * end in a 500) and lone UTF-16 surrogates (half a character, which would be stored as U+FFFD).
 */
const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const FORBIDDEN_TEXT_MESSAGES = {
  nul: 'Le texte contient un caractère nul (U+0000), refusé : rien n’a été enregistré.',
  surrogate: 'Le texte contient un caractère mal encodé (moitié de caractère UTF-16), refusé : rien n’a été enregistré.',
} as const;

function checkString(text: string): string | null {
  if (text.includes(NUL)) return FORBIDDEN_TEXT_MESSAGES.nul;
  if (LONE_SURROGATE.test(text)) return FORBIDDEN_TEXT_MESSAGES.surrogate;
  return null;
}

/** The French reason a parsed JSON value (keys included) cannot be accepted, or null. */
export function forbiddenText(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return checkString(value);
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenText(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = checkString(key) ?? forbiddenText(item, depth + 1);
    if (found) return found;
  }
  return null;
}
