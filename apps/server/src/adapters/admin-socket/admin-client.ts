import net from 'node:net';
import { type AdminRequest, type AdminResponse, adminResponseSchema, adminSocketPath, fitsSocketPath } from './admin-protocol.ts';

/**
 * Creating an account hashes a password (argon2): a second at most, much more on a loaded machine;
 * a maker's batch hashes one claim code per device.
 */
const RESPONSE_TIMEOUT_MS = 60_000;
const TIMEOUT_PER_DEVICE_MS = 100;

export const NO_ANSWER = 'Le serveur Vigie n’a pas répondu sur son canal d’administration local. Réessayez, ou arrêtez-le.';

/** Connects to a socket path: the connected socket, or the code of the connection's failure. */
function connect(socketPath: string): Promise<net.Socket | string> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const onError = (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EUNKNOWN');
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/**
 * Who is behind a socket path: a server that answers, a file left by a killed one (`stale`),
 * nothing (`absent`), or `unreachable` (e.g. another user's socket): that one is never removed.
 */
export async function probeAdminSocket(socketPath: string): Promise<'answering' | 'stale' | 'absent' | 'unreachable'> {
  const connected = await connect(socketPath);
  if (typeof connected !== 'string') {
    connected.destroy();
    return 'answering';
  }
  if (connected === 'ECONNREFUSED') return 'stale';
  if (connected === 'ENOENT') return 'absent';
  return 'unreachable';
}

/**
 * Sends one request to the server that runs on this DATA_DIR. Null when no server answers there
 * (none runs, or its socket cannot be reached): the caller then opens the database itself. Throws
 * an Error with a French message when the server accepted the connection but did not answer.
 */
export async function sendAdminRequest(dataDir: string, request: AdminRequest): Promise<AdminResponse | null> {
  const socketPath = adminSocketPath(dataDir);
  if (!fitsSocketPath(socketPath)) return null;
  const socket = await connect(socketPath);
  if (typeof socket === 'string') return null;
  return new Promise<AdminResponse>((resolve, reject) => {
    let received = '';
    const failed = () => {
      socket.destroy();
      reject(new Error(NO_ANSWER));
    };
    socket.setEncoding('utf8');
    const devices = request.command === 'devices:import' ? request.devices.length : 0;
    socket.setTimeout(RESPONSE_TIMEOUT_MS + devices * TIMEOUT_PER_DEVICE_MS, failed);
    socket.on('error', failed);
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => {
      const parsed = (() => {
        try {
          return adminResponseSchema.safeParse(JSON.parse(received.split('\n')[0] ?? ''));
        } catch {
          return null;
        }
      })();
      socket.destroy();
      if (parsed?.success) resolve(parsed.data);
      else reject(new Error(NO_ANSWER));
    });
    socket.write(`${JSON.stringify(request)}\n`);
  });
}
