import { Validator } from '@seriousme/openapi-schema-validator';
import { ENDPOINTS, endpointKey } from '@vigie/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { registeredApiRoutes } from './endpoint-route.ts';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let document: Document;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = response.json<Document>();
});
afterAll(async () => t.close());

/** `GET /api/sites/:id` for each operation of the document (OpenAPI writes `{id}`). */
function operationsOf(doc: Document): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'head')
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
    )
    .sort();
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists exactly the routes the server registers, which are exactly the catalogue', () => {
    const catalogue = ENDPOINTS.map(endpointKey).sort();
    expect(registeredApiRoutes(t.app)).toEqual(catalogue);
    expect(operationsOf(document)).toEqual(catalogue);
  });

  it('gives each operation its French summary, its section and, for members, the session scheme', () => {
    for (const endpoint of ENDPOINTS) {
      const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation?.summary, endpointKey(endpoint)).toBe(endpoint.summary);
      expect(operation?.tags).toEqual([endpoint.tag]);
      expect(Boolean(operation?.security), endpointKey(endpoint)).toBe(endpoint.access.kind === 'members');
    }
  });

  it('serves the interactive reference from the server itself', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).not.toMatch(/^(?:https?:)?\/\//);
    const script = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('validatorUrl: null');
  });
});
