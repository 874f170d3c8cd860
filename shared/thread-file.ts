import path from 'node:path';

/** Where a Piscina thread file is and how to start it. */
export interface ThreadFile {
  filename: string;
  execArgv: string[];
}

/**
 * Resolves a thread entry next to the calling module. From `dist` (production) that is the
 * compiled `.js` and threads start plain; under tsx (tests, development) the caller itself is a
 * `.ts` file, so the thread is the `.ts` source and starts with the tsx loader.
 * @param callerFile - the calling module's `__filename`
 * @param relative - path of the thread entry from the caller's folder, without extension
 * @returns filename and execArgv for Piscina
 */
export function resolveThreadFile(callerFile: string, relative: string): ThreadFile {
  const fromSource = callerFile.endsWith('.ts');
  const filename = path.join(path.dirname(callerFile), `${relative}${fromSource ? '.ts' : '.js'}`);
  return { filename, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}
