/** On-call's plain values (no zod): what a browser bundle may import without the schemas. */
import { WEEKDAYS } from './sites.ts';

/** Days an on-call slot covers: weekdays, and `holiday`, the French public holidays. */
export const ON_CALL_DAYS = [...WEEKDAYS, 'holiday'] as const;
export type OnCallDay = (typeof ON_CALL_DAYS)[number];
