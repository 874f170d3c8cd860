import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the adapter keeps how many credits its checks have spent: it must survive a restart. */
export interface SpendStore {
  /** @returns the credits spent so far */
  spent(): Promise<number>;
  /**
   * Records charged answers, durably, before the adapter answers them.
   * @param credits - credits just spent
   * @returns the new total
   */
  add(credits: number): Promise<number>;
}

/**
 * A spend store in one JSON file (`{"spent": n}`), written to a temporary file and renamed over
 * the old one, so a crash mid-write leaves either the old total or the new one, never a torn file.
 * Writes are serialized within the process; run one adapter process per file (a fleet of host
 * processes needs a shared store: implement {@link SpendStore} over the host's database).
 * @param file - the file's path (its folder is created)
 * @returns the store
 */
export function fileSpendStore(file: string): SpendStore {
  let total: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const load = async (): Promise<number> => {
    if (total !== undefined) return total;
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { spent?: unknown };
      total = typeof parsed.spent === 'number' && Number.isFinite(parsed.spent) && parsed.spent >= 0 ? parsed.spent : 0;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      total = 0;
    }
    return total;
  };
  return {
    spent: () => load(),
    add(credits) {
      const next = queue.then(async () => {
        const value = (await load()) + credits;
        await mkdir(path.dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify({ spent: value, updated_at: new Date().toISOString() }));
        await rename(tmp, file);
        total = value;
        return value;
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
