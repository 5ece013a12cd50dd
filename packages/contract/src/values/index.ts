/**
 * `@vigie/contract/values`: the contract's plain values and functions, without zod. The web imports
 * its values from here and only types from `@vigie/contract`, so that no schema reaches a browser
 * bundle (the build's budget check fails when one does).
 */
export * from './alerts.ts';
export * from './audit.ts';
export * from './auth.ts';
export * from './calibration.ts';
export * from './devices.ts';
export * from './on-call.ts';
export * from './record.ts';
export * from './sites.ts';
export * from './sso.ts';
export * from './tasks.ts';
export * from '../task-library.ts';
export * from '../lorawan-qr.ts';
export * from './lorawan.ts';
export { can, pathOf } from '../endpoints/define.ts';
