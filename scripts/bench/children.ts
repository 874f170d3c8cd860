// The children of the HTTP benches: the service's entries and the baselines, compiled (as the
// Procfile runs them) or from the sources under tsx (BENCH_FROM_SOURCE=1), each logging to a file.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
/** BENCH_FROM_SOURCE=1: run the sources under tsx instead of a compiled copy. */
export const FROM_SOURCE = process.env.BENCH_FROM_SOURCE === '1';
// Extra node flags for every child, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
const CHILD_NODE_ARGS = (process.env.BENCH_CHILD_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

function warn(message: string): void {
  process.stdout.write(`warning: ${message}\n`);
}

/** A child process of a bench, logging to its own file. */
export interface Child {
  name: string;
  proc: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
}

/** How the children run: compiled JS under plain node (as the Procfile does), or the sources under tsx. */
export interface Runner {
  /** Node arguments that start `entry` (a path from the repository root, without extension). */
  argsFor(entry: string): string[];
}

// Non-TypeScript folders the compiled modules read at startup (the starter kit's downloadable files).
// Files the compiled tree reads at run time that tsc does not emit (the browser component is served as written).
const RUNTIME_ASSET_DIRS = ['api/starter-kit/files', 'embed/humanlike-check.js'];

/** @returns a runner of the sources under tsx */
export function sourceRunner(): Runner {
  return { argsFor: (entry) => ['--import', 'tsx', path.join(ROOT, `${entry}.ts`)] };
}

/**
 * Compiles the tree into `outDir` (inside the repository, so the compiled files resolve
 * node_modules) and runs the compiled entries under plain node, as the Procfile does.
 * @param outDir - the build folder; the caller removes it
 * @returns the runner
 */
export async function compiledRunner(outDir: string): Promise<Runner> {
  const tsc = spawn(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--outDir', outDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  tsc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  tsc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => tsc.once('exit', resolve));
  // tsc emits despite type errors (someone may be mid-change elsewhere); refuse only when nothing was emitted.
  if (code !== 0) warn(` tsc exited with ${code} while building the bench copy:\n${output.split('\n').slice(0, 8).join('\n')}`);
  // Files the modules read beside themselves at startup, which tsc does not emit.
  for (const dir of RUNTIME_ASSET_DIRS) cpSync(path.join(ROOT, dir), path.join(outDir, dir), { recursive: true });
  return {
    argsFor(entry) {
      const file = path.join(outDir, `${entry}.js`);
      if (!existsSync(file)) throw new Error(`the build has no ${file}`);
      return [file];
    },
  };
}

/**
 * Starts an entry as a child process (with BENCH_CHILD_NODE_ARGS), its output in `<logDir>/<name>.log`.
 * @param name - the child's name in reports and its log file's
 * @param runner - compiled or from source
 * @param entry - a path from the repository root, without extension
 * @param args - arguments after the entry
 * @param env - variables over this process's environment
 * @param logDir - the folder of the children's logs
 * @returns the child
 */
export function startChild(name: string, runner: Runner, entry: string, args: string[], env: Record<string, string>, logDir: string): Child {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const proc = spawn(process.execPath, [...CHILD_NODE_ARGS, ...runner.argsFor(entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { name, proc, logFile, exited };
}

/**
 * The last lines of a child's log, for a failure message.
 * @param child - the child
 * @param lines - how many
 * @returns them, or "(no log)"
 */
export function logTail(child: Child, lines = 15): string {
  try {
    return readFileSync(child.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Stops a child with SIGTERM, and SIGKILL after `graceMs`.
 * @param child - the child
 * @param graceMs - how long it may take to exit
 */
export async function stopChild(child: Child, graceMs: number): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    child.exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (timedOut) {
    warn(`${child.name} did not exit ${graceMs} ms after SIGTERM; killing it`);
    child.proc.kill('SIGKILL');
    await child.exited;
  }
}

/**
 * Waits until `check` answers true, failing at once (with its log's tail) when a child exits.
 * @param what - what is waited for, in messages
 * @param check - the readiness check; a rejection counts as not ready
 * @param children - the children that must stay up meanwhile
 * @param timeoutMs - how long to wait
 */
export async function waitFor(what: string, check: () => Promise<boolean>, children: Child[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    const dead = children.find((c) => c.proc.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited (code ${dead.proc.exitCode}) while waiting for ${what}:\n${logTail(dead)}`);
    const ready = await check().catch((err: unknown) => {
      last = err instanceof Error ? err.message : String(err);
      return false;
    });
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The runner a bench uses: a compiled copy in `buildDir`, or the sources when BENCH_FROM_SOURCE=1.
 * @param buildDir - the build folder (`.bench/build-<run>`); the caller removes it
 * @returns the runner
 */
export function benchRunner(buildDir: string): Promise<Runner> {
  return FROM_SOURCE ? Promise.resolve(sourceRunner()) : compiledRunner(buildDir);
}
