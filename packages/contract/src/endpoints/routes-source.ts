import type { Endpoint, ScopeRule } from './define.ts';

/** Where the generated client view of the catalogue lives, from the repository's root. */
export const ROUTES_FILE = 'packages/contract/src/endpoints/routes.ts';

type Group = { readonly [name: string]: Endpoint | Group };

const isEndpoint = (value: Endpoint | Group): value is Endpoint => typeof value.method === 'string' && typeof value.path === 'string';

const literal = (value: unknown): string => JSON.stringify(value).replace(/'/g, "\\'").replace(/^"|"$/g, "'").replace(/\\"/g, '"');

const scopeText = (scope: ScopeRule): string =>
  `{ ${Object.entries(scope)
    .map(([key, value]) => `${key}: ${literal(value)}`)
    .join(', ')} }`;

function render(group: Group, indent: string): string[] {
  return Object.entries(group).flatMap(([name, value]) => {
    if (!isEndpoint(value)) return [`${indent}${name}: {`, ...render(value, `${indent}  `), `${indent}},`];
    const { access } = value;
    const accessText =
      access.kind === 'members'
        ? `{ kind: 'members', roles: [${access.roles.map(literal).join(', ')}], message: ${literal(access.message)}${access.duringTotpSetup ? ', duringTotpSetup: true' : ''}${access.peopleOnly ? ', peopleOnly: true' : ''}, scope: ${scopeText(access.scope)} }`
        : `{ kind: ${literal(access.kind)} }`;
    return [`${indent}${name}: { method: ${literal(value.method)}, path: ${literal(value.path)}, access: ${accessText} },`];
  });
}

/**
 * The source of `routes.ts`: each endpoint's method, path and access, without its schemas, for
 * clients that call the API by name but must not carry its validation code (the web app's
 * bundle). Written by `npm run endpoints:generate`; a test fails when it is out of date.
 */
export function renderRoutes(endpoints: Group): string {
  return [
    '// Generated from the endpoint catalogue (packages/contract/src/endpoints) by `npm run endpoints:generate`: do not edit.',
    '// Each endpoint’s method, path and access, without its schemas: what a client needs to call it by name.',
    "import type { Route } from './define.ts';",
    '',
    'export const endpoints = {',
    ...render(endpoints, '  '),
    '} as const satisfies { readonly [area: string]: { readonly [name: string]: Route } };',
    '',
  ].join('\n');
}
