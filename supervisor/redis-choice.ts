import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { Logger } from '../shared/logger';
import { freePort } from './free-port';
import { manageProcess, type ManagedProcess } from './managed-process';
import { StartupError } from './startup-error';

/** Where `npm start` looks for a Redis before starting its own. */
export const DEFAULT_REDIS_PROBE = { host: '127.0.0.1', port: 6379 } as const;

/** Which Redis the stack uses, and whether the supervisor owns it. */
export type RedisChoice =
  | { source: 'configured' | 'local'; url: string }
  | { source: 'private'; url: string; process: ManagedProcess };

/** What {@link chooseRedis} needs; production passes REDIS_URL, 127.0.0.1:6379 and `redis-server`. */
export interface RedisChoiceOptions {
  /** REDIS_URL when set: used as is, nothing is probed or started. */
  configuredUrl?: string;
  /** Where a running Redis is looked for. */
  probe: { host: string; port: number };
  /** The server binary: a name looked up on `searchPath`, or a path. */
  binary: string;
  /** Folders to search for the binary (PATH). */
  searchPath: string;
  /** Folder for a private server's files (its log). */
  dataDir: string;
  log: Logger;
  /** How long a private server gets to answer PING. */
  startTimeoutMs?: number;
}

/**
 * The one line `npm start` prints when it finds no Redis at all.
 * @param probe - where it looked
 * @returns the message
 */
export function noRedisMessage(probe: { host: string; port: number }): string {
  return (
    `No Redis: nothing answers on ${probe.host}:${probe.port} and redis-server is not installed. ` +
    'Install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis), or set REDIS_URL.'
  );
}

/**
 * Sends PING to a TCP address and reads the first reply line.
 * @param host - host
 * @param port - port
 * @param timeoutMs - deadline for connect and reply
 * @returns `pong` for a usable Redis, `refused` for a Redis that answered with an error
 *   (a password is required, say), `none` when nothing (or something else) answers
 */
export function pingRedisAt(host: string, port: number, timeoutMs: number): Promise<'pong' | 'refused' | 'none'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let reply = '';
    const finish = (answer: 'pong' | 'refused' | 'none') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish('none'), timeoutMs);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      const end = reply.indexOf('\r\n');
      if (end >= 0 || reply.length > 256) {
        const line = end >= 0 ? reply.slice(0, end) : reply;
        finish(line === '+PONG' ? 'pong' : line.startsWith('-') ? 'refused' : 'none');
      }
    });
    socket.once('error', () => finish('none'));
    socket.once('close', () => finish('none'));
  });
}

/**
 * Finds an executable file.
 * @param binary - a name to look up on the search path, or a path (contains a slash)
 * @param searchPath - PATH-style list of folders
 * @returns its path, or undefined
 */
export function findExecutable(binary: string, searchPath: string): string | undefined {
  const candidates = binary.includes('/') ? [binary] : searchPath.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, binary));
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function lastLogLine(logFile: string): string {
  try {
    const lines = readFileSync(logFile, 'utf8').trim().split('\n');
    return lines[lines.length - 1]?.trim() ?? '';
  } catch {
    return '';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startPrivateRedis(binary: string, dataDir: string, log: Logger, startTimeoutMs: number): Promise<RedisChoice> {
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'redis.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // Nothing is persisted (a dev queue), nothing is evicted (BullMQ's requirement), loopback only.
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes', '--dir', dataDir, '--logfile', logFile];
    args.push('--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--loglevel', 'warning');
    const child = spawn(binary, args, { detached: true, stdio: 'ignore' });
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    if (child.pid === undefined) {
      throw new StartupError(`Could not start ${binary}: ${(await spawnError).message}`);
    }
    const proc = manageProcess('redis', child);
    const deadline = Date.now() + startTimeoutMs;
    let exited = false;
    void proc.exited.then(() => {
      exited = true;
    });
    while (!exited && Date.now() < deadline) {
      if ((await pingRedisAt('127.0.0.1', port, 500)) === 'pong') {
        log.info({ port, pid: proc.pid, dataDir }, 'private redis started');
        return { source: 'private', url: `redis://127.0.0.1:${port}`, process: proc };
      }
      await sleep(50);
    }
    if (!exited) {
      await proc.stop(2_000);
      throw new StartupError(`redis-server did not answer PING within ${startTimeoutMs} ms (log: ${logFile})`);
    }
    const reason = lastLogLine(logFile);
    // Another process took the port between probing and binding it: try another one.
    if (/already in use/i.test(reason) && attempt < 3) continue;
    throw new StartupError(`redis-server exited at start: ${reason || 'no log line'} (log: ${logFile})`);
  }
}

/**
 * Picks the Redis for `npm start`: REDIS_URL when set; otherwise a Redis answering at the probe
 * address; otherwise a private `redis-server` child on a free loopback port.
 * @param options - see {@link RedisChoiceOptions}
 * @returns the choice; stop `process` on shutdown when the source is `private`
 * @throws StartupError with {@link noRedisMessage} when nothing answers and no binary exists,
 *   or when the private server fails to start
 */
export async function chooseRedis(options: RedisChoiceOptions): Promise<RedisChoice> {
  if (options.configuredUrl) return { source: 'configured', url: options.configuredUrl };
  const { host, port } = options.probe;
  const answer = await pingRedisAt(host, port, 1_000);
  if (answer === 'pong') return { source: 'local', url: `redis://${host}:${port}` };
  if (answer === 'refused') options.log.warn({ host, port }, 'redis at the default address refused PING; starting a private one');
  const binary = findExecutable(options.binary, options.searchPath);
  if (!binary) throw new StartupError(noRedisMessage(options.probe));
  return startPrivateRedis(binary, options.dataDir, options.log, options.startTimeoutMs ?? 10_000);
}
