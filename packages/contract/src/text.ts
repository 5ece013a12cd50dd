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
