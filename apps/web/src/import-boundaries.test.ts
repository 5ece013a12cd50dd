// @vitest-environment node
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The repository's own lint configuration, run on code placed in the web app's folders.
const root = path.resolve(import.meta.dirname, '../../..');
const src = path.join(root, 'apps/web/src');
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(code: string, file: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(src, file) });
  return result?.messages.map((message) => message.ruleId) ?? [];
}

// Two files that import each other, written for the cycle check and removed afterwards.
const cycleDir = path.join(src, 'features', `cycle-fixture-${process.pid}`);
const cycleA = "import { b } from './b';\nexport const a = () => b;\n";

beforeAll(() => {
  mkdirSync(cycleDir, { recursive: true });
  writeFileSync(path.join(cycleDir, 'a.ts'), cycleA);
  writeFileSync(path.join(cycleDir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
});

afterAll(() => {
  rmSync(cycleDir, { recursive: true, force: true });
});

// Each case runs ESLint, whose cycle check walks the whole import graph: seconds on a busy machine.
describe('import direction: shared → features → app', { timeout: 30_000 }, () => {
  it('fails a feature that imports another feature', async () => {
    const code = "import { LiveIndicator } from '@/features/live/live-indicator';\nexport const x = LiveIndicator;\n";
    expect(await ruleIdsFor(code, 'features/devices/components/probe.tsx')).toContain('import-x/no-restricted-paths');
  });

  it('fails shared code that imports a feature or app/', async () => {
    const feature =
      "import { DeviceDashboard } from '@/features/devices/components/device-dashboard';\nexport const x = DeviceDashboard;\n";
    expect(await ruleIdsFor(feature, 'components/ui/probe.tsx')).toContain('import-x/no-restricted-paths');
    const app = "import { AppRoutes } from '@/app/router';\nexport const x = AppRoutes;\n";
    expect(await ruleIdsFor(app, 'lib/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it('fails a feature that imports app/', async () => {
    const code = "import { useSignedInOutlet } from '@/app/signed-in-outlet';\nexport const x = useSignedInOutlet;\n";
    expect(await ruleIdsFor(code, 'features/devices/probe.ts')).toContain('import-x/no-restricted-paths');
  });

  it('fails an import cycle', async () => {
    const relative = path.relative(src, path.join(cycleDir, 'a.ts'));
    expect(await ruleIdsFor(cycleA, relative)).toContain('import-x/no-cycle');
  });

  it('lets a feature use shared code and its own files, and app/ compose features', async () => {
    const feature =
      "import { Alert } from '@/components/ui/alert';\nimport { DEVICE_KINDS } from '../device-kinds';\nexport const x = [Alert, DEVICE_KINDS];\n";
    expect(await ruleIdsFor(feature, 'features/devices/components/probe.tsx')).toEqual([]);
    const app =
      "import { DeviceDashboard } from '@/features/devices/components/device-dashboard';\nimport { LiveIndicator } from '@/features/live/live-indicator';\nexport const x = [DeviceDashboard, LiveIndicator];\n";
    expect(await ruleIdsFor(app, 'app/routes/probe.tsx')).toEqual([]);
  });
});
