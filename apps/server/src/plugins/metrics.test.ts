import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provision, sendTelemetry } from '../test/device-helpers.ts';
import { createTestApp, databaseKind, type TestApp } from '../test/test-app.ts';

const TOKEN = 'jeton-des-mesures-assez-long';

describe(`GET /metrics (${databaseKind})`, () => {
  let t: TestApp;
  let without: TestApp;
  beforeAll(async () => {
    [t, without] = await Promise.all([createTestApp({ env: { METRICS_TOKEN: TOKEN } }), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), without.close()]);
  });

  it('serves Prometheus figures to the bearer of METRICS_TOKEN only: requests per route, latency, readings stored, event-loop lag', async () => {
    const owner = await t.createAccount();
    const sensor = await provision(t, owner, 'sensor');
    expect((await sendTelemetry(t, sensor.accessToken, { values: { temperature: 4 } })).statusCode).toBe(202);
    await t.app.inject({ url: '/api/sites', headers: owner.auth });

    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer faux-jeton-faux-jeton-faux' } })).statusCode).toBe(401);
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.body).toMatch(/vigie_http_requests_total\{method="GET",route="\/api\/sites",status="200"\} 1/);
    expect(metrics.body).toContain('vigie_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/sites"}');
    expect(metrics.body).toMatch(/vigie_readings_stored_total [1-9]/);
    expect(metrics.body).toContain('vigie_nodejs_eventloop_lag_seconds');
  });

  it('does not exist without METRICS_TOKEN (404)', async () => {
    expect((await without.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
  });
});
