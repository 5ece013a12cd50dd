/** Sites' plain values (no zod): what a browser bundle may import without the schemas. */

/** Days of the week as `openingHours` keys, Monday first (the French week). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
