import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The file, in `npm start`'s data folder, that holds the embedded database's URL while the stack
 * runs: the operator tools (`humanlike admin ...`) read it when DATABASE_URL is not set, so nobody
 * copies a URL out of a log line. Readable by its owner only; removed when the stack stops.
 */
export const DATABASE_URL_FILE = 'database-url';

/**
 * The repository folder: the nearest ancestor of `from` holding package.json (the same from the
 * sources under tsx and from `dist/`).
 * @param from - a folder inside the repository
 * @returns the repository folder
 */
export function findRootDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

/**
 * `npm start`'s data folder: DATA_DIR, else `.data` in the repository.
 * @param env - environment (DATA_DIR)
 * @param rootDir - the repository folder
 * @returns an absolute path
 */
export function stackDataDir(env: NodeJS.ProcessEnv, rootDir: string): string {
  return path.resolve(env.DATA_DIR?.trim() || path.join(rootDir, '.data'));
}

/**
 * Records the embedded database's URL for the operator tools (mode 0600).
 * @param dataDir - the stack's data folder
 * @param url - the URL web and worker use
 */
export function writeStackDatabaseUrl(dataDir: string, url: string): void {
  const file = path.join(dataDir, DATABASE_URL_FILE);
  writeFileSync(file, `${url}\n`, { mode: 0o600 });
  // An existing file keeps its mode through writeFileSync.
  chmodSync(file, 0o600);
}

/**
 * Removes the URL file of a stack that stops (nothing answers at that URL any more).
 * @param dataDir - the stack's data folder
 */
export function removeStackDatabaseUrl(dataDir: string): void {
  rmSync(path.join(dataDir, DATABASE_URL_FILE), { force: true });
}

/**
 * The embedded database's URL of a running `npm start`, if one recorded it.
 * @param dataDir - the stack's data folder
 * @returns the URL, or undefined
 */
export function readStackDatabaseUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, DATABASE_URL_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
