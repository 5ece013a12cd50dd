const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections: the server is full for now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end',
  'connection timeout',
];

/** Our own word that the database cannot be used right now (a ping timed out, the server is stopping). */
export class DatabaseUnavailableError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(`Database unavailable: ${reason}`, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/** True when `test` holds for the error or anything in its `cause` chain (Drizzle wraps driver errors). */
function inCauseChain(error: unknown, test: (error: Error & { code?: unknown }) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    if (test(current)) return true;
    current = current.cause;
  }
  return false;
}

/** True when an error, or anything in its cause chain, means the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inCauseChain(
    error,
    (candidate) =>
      candidate instanceof DatabaseUnavailableError ||
      (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(candidate.code)) ||
      UNAVAILABLE_MESSAGES.some((text) => candidate.message.includes(text)),
  );
}

/** True when an error, or anything in its cause chain, is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return inCauseChain(error, ({ code }) => code === '23505');
}

/** Deadlock or serialization failure, anywhere in the cause chain: the transaction can be replayed. */
export function isTransactionConflict(error: unknown): boolean {
  return inCauseChain(error, ({ code }) => code === '40P01' || code === '40001');
}
