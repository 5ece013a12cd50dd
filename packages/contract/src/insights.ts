import { z } from 'zod';
import { isoDateTimeSchema, uuidSchema } from './common.ts';
import { READING_KEY_PATTERN } from './telemetry.ts';

export const insightsQuerySchema = z.strictObject({
  key: z
    .string({ error: 'La mesure doit être une chaîne de caractères, par exemple « temperature ».' })
    .regex(READING_KEY_PATTERN, { error: 'Mesure inconnue : une clé comme « temperature » est attendue.' })
    .default('temperature'),
});

/** One step of the forecast: the expected value and its 80 % prediction interval. */
export const forecastPointSchema = z.object({ ts: isoDateTimeSchema, value: z.number(), low: z.number(), high: z.number() });
export type ForecastPoint = z.infer<typeof forecastPointSchema>;

/**
 * docs/api.md, Analyse prédictive: when the forecast crosses a limit of an active rule of the sensor
 * (`eta`), the hours its interval allows (`earliest`: when its unfavourable side crosses; `latest`:
 * when its favourable side does, null when that side stays within the limit over the horizon), how
 * likely the crossing is within the horizon (`probability`, 0 to 1), and the hour announced before
 * when it moved by 10 minutes or more since (`movedFrom`). The last four are absent from insights
 * computed before they existed.
 */
export const predictedBreachSchema = z.object({
  ruleId: uuidSchema,
  threshold: z.number(),
  eta: isoDateTimeSchema,
  earliest: isoDateTimeSchema.optional(),
  latest: isoDateTimeSchema.nullable().optional(),
  probability: z.number().min(0).max(1).optional(),
  movedFrom: isoDateTimeSchema.nullable().optional(),
});
export type PredictedBreach = z.infer<typeof predictedBreachSchema>;

/**
 * What an anomaly is, in a shop manager's words once explained:
 * - `level_shift`: the level moved and stayed there (a door left open, a failing unit);
 * - `drift`: a slow steady slide over hours or days (a sensor drifting, a unit losing ground);
 * - `flatline`: the same value for far longer than this unit ever holds still (a stuck sensor);
 * - `noise`: readings much more jittery than this unit's normal;
 * - `compressor`: cooling cycles longer and longer (a compressor losing power);
 * - `door_open`: a door open far longer than usual at this hour;
 * - `defrost_missed`: an expected defrost did not happen;
 * - `defrost_long`: a defrost that lasts abnormally long (heater or timer stuck);
 * - `pattern`: not the usual shape for this hour of the day or week.
 */
export const ANOMALY_KINDS = [
  'level_shift',
  'drift',
  'flatline',
  'noise',
  'compressor',
  'door_open',
  'defrost_missed',
  'defrost_long',
  'pattern',
] as const;
export const anomalyKindSchema = z.enum(ANOMALY_KINDS);
export type AnomalyKind = z.infer<typeof anomalyKindSchema>;

/** docs/api.md, Analyse prédictive: `score` from 0 (barely) to 1 (certain and severe); `explanation` in plain French. */
export const anomalySchema = z.object({
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  score: z.number(),
  kind: anomalyKindSchema,
  explanation: z.string(),
});
export type Anomaly = z.infer<typeof anomalySchema>;

/** A defrost cycle recognised in the history: a periodic short rise, expected, never an alert by itself. */
export const defrostSchema = z.object({ from: isoDateTimeSchema, to: isoDateTimeSchema });
export type Defrost = z.infer<typeof defrostSchema>;

/** A stretch beyond a rule's limit, with its cost in degree-hours (a door opening weighs little, a failure a lot). */
export const excursionSchema = z.object({
  ruleId: uuidSchema,
  threshold: z.number(),
  from: isoDateTimeSchema,
  /** Null while the excursion is still going on. */
  to: isoDateTimeSchema.nullable(),
  peak: z.number(),
  degreeHours: z.number(),
});
export type Excursion = z.infer<typeof excursionSchema>;

/** The battery's end of life: the most likely date, within a range (never a promise). */
export const batteryOutlookSchema = z.object({ endOfLifeAt: isoDateTimeSchema, earliest: isoDateTimeSchema, latest: isoDateTimeSchema });

/**
 * Which model speaks for the forecast: `seasonal` (the unit's habits, its cycles and hours),
 * `relaxation` (it tends exponentially to a new level: a cold unit that lost its cooling warms
 * toward the shop's air) or `trend` (it moves away at a steady pace); `explanation` in plain French.
 */
export const FORECAST_MODELS = ['seasonal', 'relaxation', 'trend'] as const;
/** What a forecast rests on: so many readings since that instant (the departure's, or the history's). */
export const forecastBasisSchema = z.object({ readings: z.number().int().nonnegative(), since: isoDateTimeSchema });
export type ForecastBasis = z.infer<typeof forecastBasisSchema>;
export const forecastModelSchema = z.object({
  kind: z.enum(FORECAST_MODELS),
  explanation: z.string(),
  /** Absent from insights computed before it existed. */
  basis: forecastBasisSchema.nullable().optional(),
});
/**
 * Why there is no forecast: `not_enough_readings` (too few readings yet to say anything, « pas
 * assez de relevés pour prévoir »), `no_recent_reading` (the sensor has been silent for over an hour).
 */
export const FORECAST_UNAVAILABLE = ['not_enough_readings', 'no_recent_reading'] as const;
export type ForecastModel = z.infer<typeof forecastModelSchema>;

export const insightsSchema = z.object({
  key: z.string(),
  /** When these figures were computed (they are cached for a minute). */
  computedAt: isoDateTimeSchema,
  forecast: z.array(forecastPointSchema),
  /** The model behind `forecast` (absent from insights computed before it existed, null without a forecast). */
  forecastModel: forecastModelSchema.nullable().optional(),
  /** Why `forecast` is empty (null when there is one; absent from insights computed before it existed). */
  forecastUnavailable: z.enum(FORECAST_UNAVAILABLE).nullable().optional(),
  breach: predictedBreachSchema.nullable(),
  anomalies: z.array(anomalySchema),
  battery: batteryOutlookSchema.nullable(),
  /** Defrost cycles recognised over the analysed history (the last seven days). */
  defrosts: z.array(defrostSchema),
  /** Excursions beyond the active rules' limits over the analysed history, with their degree-hours. */
  excursions: z.array(excursionSchema),
});
export type Insights = z.infer<typeof insightsSchema>;

export const insightsResponseSchema = z.object({ insights: insightsSchema });

/**
 * « À surveiller »: a sensor with a predicted breach or a current anomaly, most urgent first
 * (a breach expected soonest, then the strongest anomaly).
 */
export const watchItemSchema = z.object({
  sensorId: uuidSchema,
  sensorName: z.string(),
  siteId: uuidSchema,
  siteName: z.string(),
  key: z.string(),
  /** From 0 to 1: a breach within the hour is near 1, a weak anomaly near 0. */
  urgency: z.number(),
  breach: predictedBreachSchema.nullable(),
  /** The strongest anomaly still going on in the last hours, if any. */
  anomaly: anomalySchema.nullable(),
  computedAt: isoDateTimeSchema,
});
export type WatchItem = z.infer<typeof watchItemSchema>;

export const watchQuerySchema = z.strictObject({ siteId: uuidSchema.optional() });
export const watchResponseSchema = z.object({ watch: z.array(watchItemSchema) });
