import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A closed-loop load of `connections` callers, each sending its next request when the last one
 * answered, measured over one window in the middle of one continuous run.
 *
 * Autocannon starts every connection at the same instant and each case anew, which is right for
 * millisecond round trips but not for calls that wait a 2 s block: 100 calls sent together come
 * back from their blocks together, and a fixed delay keeps them together for the rest of the
 * run, so the service sees waves no population of independent agents would send. Its window
 * also cuts the last wave off: a 10 s window of 3 s cycles counts three waves, not 3.3. Here
 * caller i starts i/connections of `staggerMs` late, the window opens after a warm-up of the same
 * run, and it counts what completes inside it.
 */
export interface ClosedLoopOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Caller i sends its first request i/connections of this late. */
  staggerMs: number;
  /** One call: its outcome is an HTTP status, or 'error' / 'timeout'. */
  call: (agent: http.Agent) => Promise<string>;
  /** Called as the measured window opens and closes (CPU samples, job timelines). */
  onWindow?: (edge: 'open' | 'close') => void;
}

export interface ClosedLoopResult {
  /** The measured window's length. */
  seconds: number;
  statusCounts: Record<string, number>;
  /** Calls that got no answer: refused, reset, or timed out. */
  errors: number;
  /** Those of the errors that timed out. */
  timeouts: number;
  /** Latencies (ms) of the responses that completed inside the window. */
  latencies: number[];
}

export async function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const result: ClosedLoopResult = { seconds: options.seconds, statusCounts: {}, errors: 0, timeouts: 0, latencies: [] };
  const start = performance.now();
  const opens = start + options.warmupSeconds * 1000;
  const closes = opens + options.seconds * 1000;
  const edges = [
    setTimeout(() => options.onWindow?.('open'), opens - start),
    setTimeout(() => options.onWindow?.('close'), closes - start),
  ];
  const inWindow = (t: number) => t >= opens && t < closes;

  const caller = async (i: number) => {
    await sleep((i * options.staggerMs) / options.connections);
    while (performance.now() < closes) {
      const sent = performance.now();
      const outcome = await options.call(agent);
      const done = performance.now();
      if (!inWindow(done)) continue;
      if (outcome === 'error' || outcome === 'timeout') {
        // As autocannon counts them: a timeout is an error too.
        result.errors++;
        if (outcome === 'timeout') result.timeouts++;
      } else {
        result.statusCounts[outcome] = (result.statusCounts[outcome] ?? 0) + 1;
        result.latencies.push(done - sent);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, i) => caller(i)));
  } finally {
    edges.forEach(clearTimeout);
    agent.destroy();
  }
  return result;
}

/**
 * One POST on a keep-alive agent.
 * @returns the status and the body's text, or 'error' / 'timeout' with an empty body
 */
export function post(url: string, agent: http.Agent, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: string; text: string }> {
  return new Promise((resolve) => {
    const failed = (status: string) => resolve({ status, text: '' });
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, timeout: timeoutMs });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: String(res.statusCode), text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => failed('error'));
    });
    req.on('timeout', () => {
      req.destroy();
      failed('timeout');
    });
    req.on('error', () => failed('error'));
    req.end(body);
  });
}
