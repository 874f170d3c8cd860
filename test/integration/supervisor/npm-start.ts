import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { payForSession, type PaidSessionOutcome } from '../../../cli/pay/pay-for-session';
import { isAlive } from '../../helpers/process';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The compiled supervisor, as `npm start` runs it. */
export const SUPERVISOR_JS = path.join(ROOT, 'dist', 'supervisor', 'main.js');

/** A JSON log line of the supervisor or one of its children. */
export type LogEntry = Record<string, unknown>;

/** `npm start` running as a real process tree, and what it printed. */
export interface RunningStack {
  child: ChildProcess;
  /** Base URL from the ready line. */
  url: string;
  readyLine: string;
  /** The queue prefix the ready line names, when it names one. */
  queuePrefix?: string;
  privateKey: `0x${string}`;
  asset: string;
  /** Every JSON log line so far (supervisor, web, worker, facilitator). */
  logs: LogEntry[];
  /** The lines of the banner npm start printed on stderr (between its two rules). */
  printed: string[];
  /** The second funded wallet's private key the banner printed. */
  secondPrivateKey: `0x${string}`;
  /** stdout lines that were not JSON (npm start keeps stdout for JSON log lines: none expected). */
  notJson: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves with the first log line (past or future) that matches.
   * @param match - predicate
   * @param timeoutMs - deadline
   */
  waitForLog(match: (entry: LogEntry) => boolean, timeoutMs: number): Promise<LogEntry>;
  /** Pids of every web and worker process the supervisor started so far. */
  childPids(): number[];
  /** Pays one basic session with the printed test wallet. */
  pay(text?: string): Promise<PaidSessionOutcome>;
  /** SIGKILLs whatever of the tree is still alive (cleanup after a failed test). */
  killAll(): void;
}

/** The rule npm start frames its banner with. */
const RULE = /^={20,}$/;

/**
 * Reads the banner npm start writes on stderr once the stack serves: the lines between its two rules.
 * @param stderr - the supervisor's stderr
 * @returns the banner's lines (blank ones included)
 */
export function readBanner(stderr: NodeJS.ReadableStream): Promise<string[]> {
  return new Promise((resolve) => {
    const lines: string[] = [];
    let inside = false;
    const reader = createInterface({ input: stderr });
    reader.on('line', (line) => {
      if (RULE.test(line)) {
        if (inside) {
          reader.close();
          resolve(lines);
        }
        inside = !inside;
      } else if (inside) lines.push(line);
    });
  });
}

/**
 * Starts `node dist/supervisor/main.js` (what `npm start` runs) and waits for its banner (on
 * stderr, framed by two rules). The caller sets DATA_DIR, PORT and anything else in `env`.
 * @param env - environment on top of PATH, HOME, HOST, LOG_LEVEL, SCORING_THREADS, SHUTDOWN_GRACE_MS
 * @param timeoutMs - how long the stack gets to come up
 * @returns the running stack
 * @throws Error when dist is not built or the stack exits before it is ready
 */
export async function startNpmStart(env: Record<string, string>, timeoutMs = 90_000): Promise<RunningStack> {
  if (!existsSync(SUPERVISOR_JS)) throw new Error(`${SUPERVISOR_JS} is missing: build with npx tsc -p tsconfig.json`);
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SCORING_THREADS: '1',
    SHUTDOWN_GRACE_MS: '5000',
    ...env,
  };
  // CI has a Redis on 127.0.0.1:6379, which the supervisor finds by itself; honour a test override.
  if (process.env.TEST_REDIS_URL && !fullEnv.REDIS_URL) fullEnv.REDIS_URL = process.env.TEST_REDIS_URL;
  const child = spawn(process.execPath, [SUPERVISOR_JS], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const logs: LogEntry[] = [];
  const notJson: string[] = [];
  const pids: number[] = [];
  const waiters: Array<{ match: (entry: LogEntry) => boolean; resolve: (entry: LogEntry) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{')) {
      notJson.push(line);
      return;
    }
    const entry = JSON.parse(line) as LogEntry;
    logs.push(entry);
    if (entry.msg === 'process started') pids.push(entry.pid as number);
    for (const waiter of waiters.splice(0)) {
      if (waiter.match(entry)) waiter.resolve(entry);
      else waiters.push(waiter);
    }
  });
  const bannerRead = readBanner(child.stderr!);
  const ready = new Promise<string[]>((resolve, reject) => {
    void bannerRead.then(resolve);
    void exited.then(({ code, signal }) => reject(new Error(`npm start exited (${code ?? signal}) before it was ready: ${stderr}`)));
  });
  const killAll = () => {
    for (const pid of [child.pid, ...pids]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  };
  let timer: NodeJS.Timeout | undefined;
  let printed: string[];
  try {
    printed = await Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`npm start was not ready within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    killAll();
    throw err;
  } finally {
    clearTimeout(timer);
  }

  const all = printed.join('\n');
  const readyLine = printed.find((l) => l.startsWith('humanlike is running at')) ?? '';
  const url = /running at (http:\/\/[^ ]+) /.exec(readyLine)?.[1];
  const [privateKey, secondPrivateKey] = [...all.matchAll(/private key .*: (0x[0-9a-f]{64})$/gm)].map((m) => m[1]);
  const asset = /--asset (0x[0-9a-fA-F]{40})/.exec(all)?.[1];
  if (!url || !privateKey || !secondPrivateKey || !asset) {
    killAll();
    throw new Error(`npm start printed no URL, key or asset:\n${all}`);
  }
  return {
    child,
    url,
    readyLine,
    queuePrefix: /queue prefix ([A-Za-z0-9_-]+)/.exec(readyLine)?.[1],
    privateKey: privateKey as `0x${string}`,
    secondPrivateKey: secondPrivateKey as `0x${string}`,
    asset,
    logs,
    printed,
    notJson,
    stderr: () => stderr,
    exited,
    waitForLog(match, ms) {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogEntry>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no matching log line within ${ms} ms`)), ms);
        waiters.push({
          match,
          resolve: (entry) => {
            clearTimeout(t);
            resolve(entry);
          },
        });
      });
    },
    childPids: () => [...pids],
    pay(text = 'Oh no, I am so sorry. Want to talk tonight?') {
      return payForSession({
        url,
        privateKey: privateKey as `0x${string}`,
        allowedAssets: [{ network: 'eip155:8453', asset }],
        request: { proposed_text: text, response_delay_seconds: 20, target_profile: 'grief-support-peer', tier: 'basic' },
      });
    },
    killAll,
  };
}
