import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from './startup-error';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder for this process. PGlite does not lock its files, and two processes
 * opening one database corrupt it, so a second `npm start` on the same folder must stop.
 * A lock left by a process that no longer runs is taken over.
 * @param dataDir - the data folder (created if missing)
 * @returns a function that releases the lock
 * @throws StartupError when a running process holds the lock
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'supervisor.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      throw new StartupError(
        `Another npm start (pid ${holder}) is using ${dataDir}; stop it, or set DATA_DIR to another folder (delete ${file} if pid ${holder} is not npm start)`,
      );
    }
    rmSync(file, { force: true });
  }
  throw new StartupError(`Could not lock ${dataDir}; delete ${file} and retry`);
}
