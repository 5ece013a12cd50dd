import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `Le dossier de données « ${dataDir} » est déjà utilisé par un autre serveur Vigie (PID ${ownerPid}). ` +
        'Arrêtez-le, ou choisissez un autre dossier avec DATA_DIR.',
    );
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An exclusive, process-scoped lock on the embedded database folder: PGlite is single-process,
 * and two servers writing the same files would corrupt them. A lock left by a killed process
 * (its PID no longer alive) is taken over, so a restart after a crash needs no manual step.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'vigie.lock');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const ownerPid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10);
      if (isAlive(ownerPid)) throw new DataDirLockedError(dataDir, ownerPid);
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Impossible de verrouiller le dossier de données « ${dataDir} ».`);
}
