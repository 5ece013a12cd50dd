import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * What Node's HTTP parser refuses before Fastify sees a request, by its error code. Node would
 * answer an English status line without a body, Fastify an English JSON of its own: the client
 * reads the same `{message}` in French as from any route.
 */
const PARSER_ERRORS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    `En-têtes de la requête trop volumineux : ${Math.floor(http.maxHeaderSize / 1024)} Kio au plus, adresse comprise.`,
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Requête trop volumineuse : les extensions d’un morceau du corps dépassent la limite.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'La requête a pris trop de temps : envoyez-la de nouveau.'],
};
const MALFORMED: [number, string] = [400, 'Requête HTTP mal formée : la ligne de requête ou un en-tête est invalide.'];

/** The longest path parameter the router reads (an id is 36 characters); longer is a 414. */
export const MAX_PARAM_LENGTH = 100;

const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

/** A complete HTTP/1.1 answer, written by hand on a connection the parser gave up on. */
function rawAnswer(status: number, message: string): string {
  const body = JSON.stringify({ message });
  const headers = Object.entries({ ...HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\n${headers}\r\n${body}`;
}

/**
 * Fastify's `clientErrorHandler`: answers a request the HTTP parser refused, then closes the
 * connection, which cannot be read further.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = (error.code && PARSER_ERRORS[error.code]) || MALFORMED;
  this.log.debug({ err: error, status }, 'Requête HTTP refusée par l’analyseur');
  // As Node does: no answer once an earlier answer on this connection has begun, which it would corrupt.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawAnswer(status, message));
  socket.destroy(error);
}

/** Fastify's `frameworkErrors`: what its router refuses before a route is found. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message]: [number, string] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, `Adresse trop longue : un de ses paramètres dépasse ${MAX_PARAM_LENGTH} caractères.`]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'Adresse mal encodée : une séquence « % » n’est pas un caractère UTF-8 valide.']
        : [400, 'Requête invalide.'];
  void reply.code(status).headers(HEADERS).send({ message });
}

/**
 * Two answers Fastify and Node would give in English, in French: a request that arrives while the
 * server stops (call it before any other hook, with Fastify's `return503OnClosing: false`), and a
 * request whose `Expect` is not `100-continue` (Node's 417 has no body).
 */
export function registerHttpErrors(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A request on a connection kept alive still comes in while in-flight ones finish: a load
  // balancer sends it elsewhere, nothing of it runs here.
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    return reply
      .code(503)
      .headers({ ...HEADERS, connection: 'close', 'retry-after': '5' })
      .send({ message: 'Le serveur s’arrête : réessayez dans un instant.' });
  });
  app.server.on('checkExpectation', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const body = JSON.stringify({ message: 'Attente « Expect » non prise en charge : seule « 100-continue » est acceptée.' });
    response.writeHead(417, { ...HEADERS, 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
  });
}
