import path from 'node:path';
import { factoryDeviceSchema, userSchema } from '@vigie/contract';
import { z } from 'zod';

/**
 * The local administration channel of a server on the embedded database: a Unix socket in
 * DATA_DIR, readable and writable by its owner only (0600), never a network port. One JSON line
 * in, one JSON line out, then the connection ends.
 */
export const ADMIN_SOCKET_NAME = 'vigie-admin.sock';

/** A request line holds at most a large maker's batch: a longer one is refused rather than buffered. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** Devices in one batch sent on the channel (about 100 bytes each on the line). */
export const MAX_BATCH_DEVICES = 50_000;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, ADMIN_SOCKET_NAME);
}

/** A Unix socket path holds 107 bytes at most; Node would silently bind a longer one truncated, elsewhere. */
export function fitsSocketPath(socketPath: string): boolean {
  return Buffer.byteLength(socketPath) <= 107;
}

/** Only the operations of the command-line tools; the fields are checked by the services, as on the direct path. */
export const adminRequestSchema = z.discriminatedUnion('command', [
  z.object({
    command: z.literal('user:create'),
    account: z.object({
      email: z.string(),
      password: z.string(),
      name: z.string().optional(),
      organizationName: z.string().optional(),
    }),
  }),
  z.object({
    command: z.literal('operator:create'),
    account: z.object({ email: z.string(), password: z.string(), name: z.string().optional() }),
  }),
  z.object({
    command: z.literal('devices:import'),
    // Checked line by line by the command first; again here, as the line comes from outside.
    devices: z.array(factoryDeviceSchema).max(MAX_BATCH_DEVICES),
  }),
]);
export type AdminRequest = z.infer<typeof adminRequestSchema>;

export const adminResponseSchema = z.union([
  z.object({ ok: z.literal(true), user: userSchema }),
  z.object({ ok: z.literal(true), imported: z.object({ added: z.array(z.string()), unchanged: z.array(z.string()) }) }),
  /** `message` is the French sentence the command prints, as on the direct path. */
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type AdminResponse = z.infer<typeof adminResponseSchema>;
