// Where a bench case's CPU went: the child processes that are a target's own, and their CPU per
// answered call. Shared by the HTTP bench's report and the comparison of two revisions' runs.

/** The HTTP bench's targets. */
export type TargetName = 'no-op' | 'floor' | 'floor-pg' | 'score' | 'embed' | 'paid' | 'paid-2s' | 'facilitator-2s' | 'stress';

/** Cores busy per process group (a child's name, `postgres`, `redis`, `bench client`, `everything else`) over a case. */
export type CpuShares = Record<string, number>;

/** What CPU-per-call needs of a case. */
export interface CaseCpu {
  target: TargetName;
  /** The measured window, in seconds. */
  seconds: number;
  /** Responses that were 200. */
  ok: number;
  cpu: CpuShares;
}

/**
 * The child processes whose CPU is a target's: its web, its worker, its facilitator.
 * @param t - the target
 * @returns their process-group names
 */
export function sideOf(t: TargetName): { web: string; worker: string; facilitator: string } {
  if (t === 'no-op' || t === 'floor') return { web: `${t} web`, worker: `${t} worker`, facilitator: 'facilitator' };
  if (t === 'floor-pg') return { web: 'floor-pg web', worker: 'floor worker', facilitator: 'facilitator' };
  if (t === 'paid-2s') return { web: 'paid-2s web', worker: 'paid-2s worker', facilitator: 'paid-2s facilitator' };
  if (t === 'facilitator-2s') return { web: '(none)', worker: '(none)', facilitator: 'paid-2s facilitator' };
  return { web: 'score web', worker: 'score worker', facilitator: 'facilitator' };
}

/**
 * The CPU of the named process groups per 200 of a case.
 * @param r - the case
 * @param groups - process-group names (a name given twice counts once)
 * @returns milliseconds of CPU per answered call
 */
export function cpuPerCall(r: CaseCpu, groups: string[]): number {
  const cores = [...new Set(groups)].reduce((a, g) => a + (r.cpu[g] ?? 0), 0);
  return (1000 * r.seconds * cores) / Math.max(1, r.ok);
}

/**
 * A case's own CPU per 200: its web, its worker with its threads, PostgreSQL and Redis; the
 * facilitator (another party's process in production) and the bench client excluded.
 * @param r - the case
 * @returns milliseconds of CPU per answered call
 */
export function ownCpuPerCall(r: CaseCpu): number {
  const side = sideOf(r.target);
  return cpuPerCall(r, [side.web, side.worker, 'postgres', 'redis']);
}
