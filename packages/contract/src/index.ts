export * from './common.ts';
export * from './auth.ts';
export * from './devices.ts';
export * from './health.ts';
export * from './telemetry.ts';
export * from './sites.ts';
export * from './alerts.ts';
export * from './notifications.ts';
