import type { LatestValue } from '@vigie/contract';

/** A device row as the devices module reads it (a transmitter has no emitterId). */
export interface DeviceRecord {
  id: string;
  name: string;
  serial: string | null;
  model: string | null;
  lastSeenAt: Date | null;
  battery: number | null;
  inactivityTimeoutSeconds: number;
  siteId: string;
  createdAt: Date;
  updatedAt: Date;
  /** Only for sensors. */
  emitterId?: string | null;
}

export interface TrashedRecord {
  id: string;
  name: string;
  serial: string | null;
  model: string | null;
  deletedAt: Date;
}

export interface DeviceChanges {
  name?: string | undefined;
  inactivityTimeoutSeconds?: number | undefined;
  siteId?: string | undefined;
}

export interface NewDevice {
  name: string;
  siteId: string;
  serial?: string;
  model?: string | undefined;
  inactivityTimeoutSeconds?: number | undefined;
}

/** A device heard from: its last-seen time moves to now, its battery and transmitter are kept. */
export interface DeviceTouch {
  deviceId: string;
  battery: number | null;
  /** Only for sensors: the transmitter it reported through. */
  emitterId: string | null;
}

/** The newest value of each key of each device; the telemetry module provides it. */
export type LatestValuesSource = (deviceIds: string[]) => Promise<Map<string, Record<string, LatestValue>>>;

/** What the alert engine needs of a sensor. */
export interface WatchedDevice {
  id: string;
  organizationId: string;
  siteId: string;
  name: string;
  lastSeenAt: Date | null;
  inactivityTimeoutSeconds: number;
}
