// Writes packages/contract/src/endpoints/routes.ts, the catalogue's view for clients (no schemas).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints } from '../packages/contract/src/endpoints/index.ts';
import { renderRoutes, ROUTES_FILE } from '../packages/contract/src/endpoints/routes-source.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(path.join(root, ROUTES_FILE), renderRoutes(endpoints));
console.log(`${ROUTES_FILE} écrit.`);
