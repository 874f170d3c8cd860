import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * How often the event-loop delay histogram takes a sample. prom-client's default, 10 ms, wakes
 * every process 100 times a second: idle, the compiled web used 5 ms of CPU per second with it and
 * 2 ms at 100 ms, the worker 7 and 2 (on the 2-core dev VM), and under load each wake-up competes
 * with requests. A loop blocked for longer than 100 ms is still always seen, and the
 * `nodejs_eventloop_*` series keep their names.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Registers Node's default process metrics (CPU, memory, handles, event-loop delay, GC) on a
 * process's own registry, the same way in every process kind.
 * @param registry - the process's registry
 */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}
