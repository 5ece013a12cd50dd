/** Text rules shared by the server and the web app, without zod (`@vigie/contract/text`). */

const graphemes = new Intl.Segmenter('fr', { granularity: 'grapheme' });

/**
 * Counts characters the way a person does: one per grapheme cluster, so that an emoji made of
 * several code points (a flag, a family, a skin tone) or a letter with a combining accent is one.
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of graphemes.segment(value)) count += 1;
  return count;
}

/**
 * Code points one character (grapheme cluster) may hold: a letter with its accents, or the
 * longest emoji sequences (a couple with skin tones is 10). Beyond that it is not writing but
 * stacked combining marks, which cost text shaping (PDF) time that grows with their square.
 */
export const MAX_CODE_POINTS_PER_CHARACTER = 16;

const encoder = new TextEncoder();

/** Bytes of the text once encoded in UTF-8, as it is stored and sent. */
export function byteLength(value: string): number {
  return encoder.encode(value).length;
}

/** Whether one character of the text stacks more code points than any writing needs. */
export function hasOverloadedCharacter(value: string): boolean {
  // A cheap bound first: no cluster can be overloaded when the whole text is short enough.
  if (value.length <= MAX_CODE_POINTS_PER_CHARACTER) return false;
  for (const { segment } of graphemes.segment(value)) {
    if (segment.length > MAX_CODE_POINTS_PER_CHARACTER && [...segment].length > MAX_CODE_POINTS_PER_CHARACTER) return true;
  }
  return false;
}

export const OVERLOADED_CHARACTER_MESSAGE = `Le texte contient un caractère surchargé de signes diacritiques (plus de ${MAX_CODE_POINTS_PER_CHARACTER} signes combinés) : refusé, rien n’a été enregistré.`;

/**
 * The text as renderers should lay it out: each character keeps at most
 * `MAX_CODE_POINTS_PER_CHARACTER` code points (the rest of its stacked marks is dropped), so a
 * hostile text stored before the limit existed still renders in bounded time.
 */
export function tameText(value: string): string {
  if (!hasOverloadedCharacter(value)) return value;
  let out = '';
  for (const { segment } of graphemes.segment(value)) {
    out += segment.length > MAX_CODE_POINTS_PER_CHARACTER ? [...segment].slice(0, MAX_CODE_POINTS_PER_CHARACTER).join('') : segment;
  }
  return out;
}
