import fs from 'node:fs';
import { afterEach } from 'vitest';
import type { RunningServer } from './child-process.ts';

/**
 * The server processes and data folders a test starts, killed and removed after each test:
 * push them onto the lists returned.
 */
export function cleanedAfterEach(): { servers: RunningServer[]; dirs: string[] } {
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return { servers, dirs };
}
