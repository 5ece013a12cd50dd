import { afterEach, describe, expect, it, vi } from 'vitest';
import { getInsights } from './get-insights';

afterEach(() => {
  vi.unstubAllGlobals();
});

function serve(body: unknown) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
}

describe('getInsights', () => {
  it('keeps which model speaks for the forecast', async () => {
    const forecastModel = {
      kind: 'relaxation',
      explanation: 'Le froid ne suit plus\u202f: la température monte vers celle de la pièce (environ 21\u00a0°C).',
    };
    serve({
      insights: {
        key: 'temperature',
        computedAt: '2026-11-27T05:33:00.000Z',
        forecast: [],
        forecastModel,
        breach: null,
        anomalies: [],
        battery: null,
        defrosts: [],
        excursions: [],
      },
    });
    expect((await getInsights({ sensorId: 's1', key: 'temperature' })).forecastModel).toEqual(forecastModel);
  });

  it('reads insights from a server that does not say it yet', async () => {
    serve({ insights: { key: 'temperature', forecast: [], anomalies: [] } });
    const insights = await getInsights({ sensorId: 's1', key: 'temperature' });
    expect(insights.forecastModel).toBeNull();
    expect(insights.defrosts).toEqual([]);
  });
});
