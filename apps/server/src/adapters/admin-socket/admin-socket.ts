import fs from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';
import { AppError, MESSAGES } from '../../errors.ts';
import type { FactoryDevice } from '@vigie/contract';
import type { UserService } from '../../modules/auth/user-service.ts';
import { probeAdminSocket } from './admin-client.ts';
import { type AdminResponse, adminRequestSchema, adminSocketPath, fitsSocketPath, MAX_REQUEST_BYTES } from './admin-protocol.ts';

/** A connection that sends no request line within this delay is closed. */
const IDLE_TIMEOUT_MS = 30_000;

export const INVALID_REQUEST = 'Requête invalide sur le canal d’administration local.';

export interface AdminSocket {
  path: string;
  /** Stops accepting, lets the requests under way answer, and removes the socket file. */
  close(): Promise<void>;
}

/** Binds under a umask that leaves the socket to its owner (0600) from its creation, before any connection. */
function listenPrivately(server: net.Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    let previous: number | undefined;
    try {
      previous = process.umask(0o177);
    } catch {
      // A worker thread cannot change the umask: the chmod below is then the only guard.
    }
    try {
      // The bind happens synchronously inside listen(): the umask is restored right after.
      server.listen(socketPath, () => {
        server.off('error', reject);
        try {
          fs.chmodSync(socketPath, 0o600);
          resolve();
        } catch (error) {
          server.close();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
}

/**
 * The local administration channel of a server on the embedded database (see admin-protocol.ts):
 * `npm run user:create` and `npm run devices:import` reach the running server here instead of
 * opening the locked database.
 * Returns null, with a warning, when the channel cannot be opened: the server runs without it.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  users: Pick<UserService, 'createAccount' | 'createOperator'>;
  /** Loads a maker's batch, all or nothing (as `importFactoryBatch`). */
  importDevices: (devices: FactoryDevice[]) => Promise<{ added: string[]; unchanged: string[] }>;
  logger: Logger;
}): Promise<AdminSocket | null> {
  const { users, logger } = options;
  const socketPath = adminSocketPath(options.dataDir);
  const unavailable = (reason: string) => {
    logger.warn(
      `Canal d’administration local non ouvert (${reason}) : arrêtez le serveur pour lancer npm run user:create ou npm run devices:import.`,
    );
    return null;
  };
  if (!fitsSocketPath(socketPath)) return unavailable(`chemin trop long pour un socket Unix : ${socketPath}`);

  const state = await probeAdminSocket(socketPath);
  if (state === 'answering') return unavailable(`un autre processus répond déjà sur ${socketPath}`);
  if (state === 'unreachable') return unavailable(`${socketPath} existe et ne peut pas être remplacé`);
  if (state === 'stale') {
    // Left by a server that was killed: nothing answers on it any more.
    if (!fs.lstatSync(socketPath).isSocket()) return unavailable(`${socketPath} existe et n’est pas un socket`);
    fs.rmSync(socketPath, { force: true });
  }

  // Connections that have not sent their request yet: closing the server ends them.
  const idle = new Set<net.Socket>();

  async function answer(line: string): Promise<AdminResponse> {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return { ok: false, message: INVALID_REQUEST };
    }
    const request = adminRequestSchema.safeParse(json);
    if (!request.success) return { ok: false, message: INVALID_REQUEST };
    try {
      if (request.data.command === 'devices:import') {
        const imported = await options.importDevices(request.data.devices);
        logger.info(
          { added: imported.added.length, unchanged: imported.unchanged.length },
          'Lot d’appareils importé par le canal d’administration local',
        );
        return { ok: true, imported };
      }
      if (request.data.command === 'operator:create') {
        const operator = await users.createOperator(request.data.account);
        logger.info({ userId: operator.id }, 'Compte opérateur créé par le canal d’administration local');
        return { ok: true, user: operator };
      }
      const user = await users.createAccount(request.data.account);
      logger.info({ userId: user.id, organizationId: user.organization.id }, 'Compte créé par le canal d’administration local');
      return { ok: true, user };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, message: error.message };
      logger.error({ err: error }, 'Échec d’une commande du canal d’administration local');
      return { ok: false, message: MESSAGES.internal };
    }
  }

  function serve(connection: net.Socket): void {
    idle.add(connection);
    connection.once('close', () => idle.delete(connection));
    // The client went away: nothing to answer.
    connection.on('error', () => undefined);
    connection.setTimeout(IDLE_TIMEOUT_MS, () => connection.destroy());
    connection.setEncoding('utf8');
    let received = '';
    const reply = (response: AdminResponse) => connection.end(`${JSON.stringify(response)}\n`);
    const onData = (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end === -1) {
        if (Buffer.byteLength(received) > MAX_REQUEST_BYTES) {
          connection.off('data', onData);
          idle.delete(connection);
          reply({ ok: false, message: INVALID_REQUEST });
        }
        return;
      }
      // One request per connection: what follows the first line is ignored.
      connection.off('data', onData);
      idle.delete(connection);
      // The request is in: a batch may take minutes to hash, the idle limit no longer applies.
      connection.setTimeout(0);
      void answer(received.slice(0, end)).then(reply);
    };
    connection.on('data', onData);
  }

  const server = net.createServer(serve);
  try {
    await listenPrivately(server, socketPath);
  } catch (error) {
    return unavailable(error instanceof Error ? error.message : String(error));
  }
  logger.info({ socket: socketPath }, 'Canal d’administration local prêt');

  return {
    path: socketPath,
    close() {
      return new Promise<void>((resolve) => {
        // Node removes the socket file once the server is closed.
        server.close(() => resolve());
        for (const connection of idle) connection.destroy();
      });
    },
  };
}
