import type { TelemetryService } from './telemetry-service.ts';

/**
 * Deletes readings older than RETENTION_DAYS at `now`. Deletes are idempotent and chunked, so
 * several instances may run it at once.
 */
export function enforceRetention(services: { telemetry: Pick<TelemetryService, 'enforceRetention'> }, now = Date.now()): Promise<number> {
  return services.telemetry.enforceRetention(now);
}
