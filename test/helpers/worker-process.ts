import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestStack } from './stack';
import { TEST_REDIS_URL } from './redis';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Starts `workers/main.ts` as a child process on a stack's database and queue prefix, and resolves
 * once it logs that its workers started. Tests SIGKILL it to crash a worker for real.
 * @param stack - the test stack whose queues it serves
 * @param env - extra environment (e.g. the facilitator URL)
 * @returns the child process
 */
export async function spawnWorker(stack: TestStack, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workers', 'main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: stack.config.db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: stack.config.redis.queuePrefix,
      SCORING_THREADS: '1',
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      ...env,
    },
  });
  child.stderr?.resume();
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.includes('"workers started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
  });
  child.stdout?.resume();
  return child;
}
