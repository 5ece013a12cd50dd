import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import drizzle from 'eslint-plugin-drizzle';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The web app's layers: shared folders → features → app. A feature never imports another one;
// what two features share moves down to a shared folder, or is composed in app/.
const webSrc = path.join(import.meta.dirname, 'apps/web/src');
const features = readdirSync(path.join(webSrc, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sharedFolders = ['components', 'hooks', 'lib', 'config', 'testing', 'utils'];
const layerZones = [
  ...features.map((feature) => ({
    target: `./features/${feature}`,
    from: './features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move the shared piece to a shared folder, or compose them in app/.',
  })),
  ...sharedFolders.map((folder) => ({
    target: `./${folder}`,
    from: ['./features', './app'],
    message: 'Shared code does not import features or app/.',
  })),
  { target: './features', from: './app', message: 'A feature does not import app/.' },
];

// Server modules own their tables: only a module's `<x>-dal.ts` touches them, and no one imports
// another module's DAL (a DAL is imported as `./<x>-dal.ts` from its own module only). The test
// helpers' `src/test/test-dal.ts` is the one shared exception, for tests. Which module owns which
// table is checked by `apps/server/src/db/table-owners.test.ts`.
const otherModulesDal = {
  regex: '^(?!\\./)(?!.*test-dal).*-dal(\\.ts)?$',
  message: "Another module's DAL: call its service instead (a DAL is imported only from its own module).",
};
const sqlOutsideDal = [
  {
    group: ['drizzle-orm', 'drizzle-orm/*'],
    message: 'SQL and Drizzle queries live only in `*-dal.ts` files and `src/db/`.',
  },
  { regex: '/db/schema(\\.ts)?$', message: 'Tables are read and written only in `*-dal.ts` files and `src/db/`.' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'apps/server/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { drizzle },
    rules: {
      'drizzle/enforce-delete-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'drizzle/enforce-update-with-where': ['error', { drizzleObjectName: ['db', 'tx'] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/config.ts only.' },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*-dal.ts', 'apps/server/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesDal, ...sqlOutsideDal] }] },
  },
  {
    // A `.unit.test.ts` file runs once, not on each database: it opens neither a database nor a server.
    files: ['apps/server/src/**/*.unit.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            otherModulesDal,
            ...sqlOutsideDal,
            {
              regex:
                '/(test/(test-app|test-dal|organization-fixture|mailing-test-app|child-process)|db/(database|pglite|postgres))(\\.ts)?$',
              message: 'A `.unit.test.ts` file needs no database (it runs once, not on each one): name it `.test.ts` to open one.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*-dal.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [otherModulesDal] }] },
  },
  {
    // The simulator is a device-side client, not the server: it reads its own environment.
    files: ['apps/server/src/config.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/test/**', 'apps/server/src/simulator/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      // Read TypeScript files when following imports (the cycle check walks the whole graph).
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: path.join(import.meta.dirname, 'apps/web/tsconfig.json') })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { basePath: webSrc, zones: layerZones }],
      'import-x/no-cycle': 'error',
      // `@vigie/contract` holds the schemas: a value imported from it would bring zod into the pages.
      // The web takes its types from it, its values from '@vigie/contract/values' and the endpoints'
      // names from '@vigie/contract/routes' (the build's check also fails when zod is bundled).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@vigie/contract',
              allowTypeImports: true,
              message:
                "Depuis '@vigie/contract', seulement des types : les valeurs viennent de '@vigie/contract/values', les points d’accès de '@vigie/contract/routes'.",
            },
          ],
        },
      ],
    },
  },
  {
    // No product function of the web app over 200 lines: a longer component is split by what it
    // does (field groups, a hook for its state and requests). Tests and their helpers are exempt.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/testing/**'],
    rules: { 'max-lines-per-function': ['error', { max: 200, skipBlankLines: true, skipComments: true }] },
  },
  {
    // No product function of the server over 200 lines: a longer factory is split by job into
    // sub-factories that it composes (a module's planner, delivery, cache…). Tests are exempt.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 200, skipBlankLines: true, skipComments: true }] },
  },
);
