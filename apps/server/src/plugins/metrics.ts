import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * `GET /metrics` for Prometheus (docs/api.md, Opérateur), given a bearer `METRICS_TOKEN`: requests
 * and their latency per route, readings stored, the process's own figures (event-loop lag, memory,
 * handles) and the write queue. Without the token configured, the address does not exist (404).
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { token: string | null; onStored: (handler: (readings: readonly unknown[]) => Promise<void>) => void },
): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vigie_' });
  const requests = new Counter({
    name: 'vigie_http_requests_total',
    help: 'Requêtes HTTP traitées, par méthode, route et statut',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'vigie_http_request_duration_seconds',
    help: 'Durée des requêtes HTTP, par méthode et route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const readings = new Counter({ name: 'vigie_readings_stored_total', help: 'Lectures enregistrées', registers: [registry] });
  const inFlight = new Gauge({ name: 'vigie_http_requests_in_flight', help: 'Requêtes HTTP en cours', registers: [registry] });
  options.onStored(async (stored) => void readings.inc(stored.length));

  app.addHook('onRequest', async () => void inFlight.inc());
  app.addHook('onResponse', async (request, reply) => {
    inFlight.dec();
    // The route's pattern, never the address itself: one series per route, not per id.
    const route = request.routeOptions.url ?? 'inconnue';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : null;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) return reply.code(404).send({ message: "Cette adresse n'existe pas dans l'API Vigie." });
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ message: 'Jeton de mesures absent ou faux.' });
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return registry.metrics();
  });
}
