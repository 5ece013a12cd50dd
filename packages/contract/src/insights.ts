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

/** PRODUCT §11: when the forecast crosses a limit of an active rule of the sensor. */
export const predictedBreachSchema = z.object({ ruleId: uuidSchema, threshold: z.number(), eta: isoDateTimeSchema });
export type PredictedBreach = z.infer<typeof predictedBreachSchema>;

export const anomalySchema = z.object({
  from: isoDateTimeSchema,
  to: isoDateTimeSchema,
  score: z.number(),
  kind: z.string(),
  explanation: z.string(),
});
export type Anomaly = z.infer<typeof anomalySchema>;

/** The battery's end of life: the most likely date, within a range (never a promise). */
export const batteryOutlookSchema = z.object({ endOfLifeAt: isoDateTimeSchema, earliest: isoDateTimeSchema, latest: isoDateTimeSchema });

export const insightsSchema = z.object({
  key: z.string(),
  /** When these figures were computed (they are cached for a minute). */
  computedAt: isoDateTimeSchema,
  forecast: z.array(forecastPointSchema),
  breach: predictedBreachSchema.nullable(),
  anomalies: z.array(anomalySchema),
  battery: batteryOutlookSchema.nullable(),
});
export type Insights = z.infer<typeof insightsSchema>;

export const insightsResponseSchema = z.object({ insights: insightsSchema });
