import type { Database } from '../../db/database.ts';
import type { EventHub } from '../events/event-hub.ts';
import { enforceRetention } from './reading-retention.ts';
import { createTelemetryService, type StoredSensorReading, type TelemetryDevices } from './telemetry-service.ts';

/** Told once readings are committed, before they are acknowledged: quick, and never throws. */
export type ReadingsStored = (readings: StoredSensorReading[]) => void | Promise<void>;

/**
 * The telemetry module: readings in (HTTP and MQTT, written in groups), their history, export and
 * retention, and each device's latest values; it keeps the readings, reading ids and latest values.
 * In: the devices (a sensor named by a transmitter, devices heard from) and the event hub.
 * Out: the service (the devices module serves the device protocol and the history with it),
 * `onStored` (who hears of committed readings, in the order they were added) and the retention job.
 */
export function createTelemetryModule(options: {
  db: Database;
  writeConcurrency: number;
  partitionedReadings: boolean;
  retentionDays: number;
  devices: TelemetryDevices;
  events: EventHub;
}) {
  const stored: ReadingsStored[] = [];
  const telemetry = createTelemetryService({
    db: options.db,
    writeConcurrency: options.writeConcurrency,
    devices: options.devices,
    events: options.events,
    retentionDays: options.retentionDays,
    partitionedReadings: options.partitionedReadings,
    onStored: async (readings) => {
      for (const handler of stored) await handler(readings);
    },
  });
  return {
    telemetry,
    onStored: (handler: ReadingsStored) => void stored.push(handler),
    jobs: { enforceRetention: () => enforceRetention({ telemetry }) },
    services: { telemetry },
    close: () => telemetry.close(),
  };
}

export type TelemetryModule = ReturnType<typeof createTelemetryModule>;
