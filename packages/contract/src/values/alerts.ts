/** Alert rules' plain values and functions (no zod): what a browser bundle may import without the schemas. */

/** A name as it is compared: without accents, in lower case, « œ » and « æ » spelt out, spaces folded. */
export function foldedName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('fr')
    .replace(/œ/gu, 'oe')
    .replace(/æ/gu, 'ae')
    .replace(/\s+/gu, ' ')
    .trim();
}
/** Whether a sensor's name holds one of the words (every sensor when there are none). */
export function nameHoldsOneOf(words: readonly string[], name: string | null | undefined): boolean {
  if (words.length === 0) return true;
  const folded = foldedName(name ?? '');
  return words.some((word) => folded.includes(foldedName(word)));
}
/** Whether a rule watches a sensor: its own, or its site's when the sensor's name matches. */
export function ruleWatches(
  rule: { sensorId: string | null; siteId: string | null; sensorNameContains?: readonly string[] | undefined },
  sensor: { id: string; siteId: string | null; name?: string | null | undefined },
): boolean {
  if (rule.sensorId !== null) return rule.sensorId === sensor.id;
  return rule.siteId !== null && rule.siteId === sensor.siteId && nameHoldsOneOf(rule.sensorNameContains ?? [], sensor.name);
}
