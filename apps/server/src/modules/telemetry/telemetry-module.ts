import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { EventHub } from '../events/event-hub.ts';
import { calibrationRoutes } from './calibration-routes.ts';
import { createCalibrationService } from './calibration-service.ts';
import { enforceRetention } from './reading-retention.ts';
import { createTelemetryService, type StoredSensorReading, type TelemetryDevices } from './telemetry-service.ts';

/** Told once readings are committed, before they are acknowledged: quick, and never throws. */
export type ReadingsStored = (readings: StoredSensorReading[]) => void | Promise<void>;

/**
 * The telemetry module: readings in (HTTP and MQTT, written in groups), their history, export and
 * retention, and each device's latest values; it keeps the readings, reading ids and latest values,
 * and the sensors' verification register (whose offsets correct the temperatures as they are stored).
 * In: the devices (a sensor named by a transmitter, devices heard from) and the event hub.
 * Out: the service (the devices module serves the device protocol and the history with it),
 * `onStored` (who hears of committed readings, in the order they were added), the retention job,
 * the verification register (the reports list it and remind of it) and its routes.
 */
export function createTelemetryModule(options: {
  db: Database;
  writeConcurrency: number;
  partitionedReadings: boolean;
  retentionDays: number;
  devices: TelemetryDevices;
  events: EventHub;
  now: () => Date;
  /** Up to when signed reports of the sensor's shop cover the time from `at` on (the reports module's). */
  signedUntil?: (organizationId: string, sensorId: string, at: Date) => Promise<Date>;
}) {
  const stored: ReadingsStored[] = [];
  const calibrations = createCalibrationService({
    db: options.db,
    now: options.now,
    events: options.events,
    assertSensor: (organizationId, sensorId) => options.devices.assertSensor(organizationId, sensorId),
    ...(options.signedUntil ? { signedUntil: options.signedUntil } : {}),
  });
  const telemetry = createTelemetryService({
    correct: (rows) => calibrations.correct(rows),
    offsetsOf: (sensorId) => calibrations.offsetsOf(sensorId),
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
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(calibrationRoutes, { calibrations });
  };
  return {
    telemetry,
    calibrations,
    routes,
    onStored: (handler: ReadingsStored) => void stored.push(handler),
    jobs: { enforceRetention: () => enforceRetention({ telemetry }) },
    services: { telemetry, calibrations },
    close: () => telemetry.close(),
  };
}

export type TelemetryModule = ReturnType<typeof createTelemetryModule>;
