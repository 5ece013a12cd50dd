import { isIP } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { badRequest } from '../errors.ts';

export const UNREADABLE_CLIENT_ADDRESS =
  'Adresse du client illisible dans l’en-tête X-Forwarded-For\u202F: le proxy doit y ajouter l’adresse IP d’où vient la requête.';

/**
 * Fastify's `trustProxy` for the configured proxies. Fastify reads `true` as « every hop », which
 * takes the left-most entry of `X-Forwarded-For`, written by the client; and it trusts no hop for
 * a bare count. A count is therefore given as a function trusting that many hops from the server,
 * the socket's peer first: the client is the address the farthest trusted proxy received from.
 */
export function trustedProxies(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/**
 * Behind proxies, the client's address comes from a header: a request whose trusted entry is not
 * an IP address (a proxy writing something else, or a client reaching the server around the
 * proxy) is refused before anything counts or records it.
 */
export function registerClientAddressCheck(app: FastifyInstance, trust: Config['trustProxy']): void {
  if (trust === false) return;
  app.addHook('onRequest', async (request) => {
    if (isIP(request.ip) === 0) throw badRequest(UNREADABLE_CLIENT_ADDRESS);
  });
}
