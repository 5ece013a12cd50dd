import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../errors.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html revalidated,
 * and any non-API path without a file answered with index.html (history fallback). The build
 * writes a Brotli and a gzip copy of each text file: the one the browser accepts is sent as it is.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      cacheControl: false,
      preCompressed: true,
      etag: true,
      lastModified: true,
      setHeaders(res, filePath) {
        const relative = path.relative(webDist, filePath);
        res.setHeader('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
        // The same address answers Brotli, gzip or plain: a cache must keep them apart.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    const isApi = url === '/api' || url.startsWith('/api/');
    // A missing file (an extension in the last segment) is a real 404, not the app shell.
    const looksLikeFile = /\.[a-z0-9]+$/i.test(url);
    if (hasWebApp && wantsPage && !isApi && !looksLikeFile) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send({ message: MESSAGES.routeNotFound });
  });
  return hasWebApp;
}
