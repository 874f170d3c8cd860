// `npm run bench:engine`: single-thread throughput and per-call latency of the scoring engine for
// replies of about 20, 100 and 400 words, with an incoming message and a delay: profile-free,
// against one profile and against all 28, plus where the time of one call goes. Wall-clock medians
// of several runs after a warm-up, with the process CPU time beside them; nothing here is asserted by
// tests. The machine may be shared: the load average is printed first, and wall figures taken under
// load are slower than the engine is (the CPU time suffers less).
import { loadavg } from 'node:os';
import { scoreText } from '../../shared/scoring';
import { analyze } from '../../shared/scoring/analyze';
import { measureDirectness } from '../../shared/scoring/directness';
import { measureEmpathy } from '../../shared/scoring/empathy';
import { measureFormality } from '../../shared/scoring/formality';
import { measureHesitation } from '../../shared/scoring/hesitation';
import { measureTextHumanLikeness } from '../../shared/scoring/human-likeness';
import { detectSignals } from '../../shared/scoring/signals';
import { median } from './stats';

// The bench's own replies, kept apart from the golden fixture so editing one never moves the other.
const SENTENCES = [
  "honestly I think the cache is the problem, it's been flaky since tuesday.",
  'Have you tried restarting the worker after the deploy?',
  "If that doesn't fix it, send me the logs and I'll take a look tonight.",
  'The migration ran fine on staging, so I doubt the schema is the issue.',
  'Sorry this is taking so long, I know you wanted it out today.',
  'Maybe check whether the queue is backing up too?',
  "We could roll back, but I'd rather not lose the fix for the billing bug.",
  'ok one more idea: the env var might still point at the old redis host...',
];

function replyOf(words: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < words; i++) {
    const s = SENTENCES[i % SENTENCES.length];
    out.push(s);
    n += s.split(/\s+/).length;
  }
  return out.join(' ');
}

const INCOMING = "the deploy failed again and I'm kind of freaking out, the client demo is in an hour. any idea what's wrong?";
const DELAY = 40;
const PROFILE = 'terse-senior-engineer';

/** Wall-clock and process CPU microseconds per call. */
function timeIt(fn: () => void, iterations: number): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / iterations;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / iterations };
}

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function bench(label: string, fn: () => void, iterations: number): number {
  for (let i = 0; i < Math.min(iterations, 500); i++) fn(); // warm up the JIT
  const runs: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t = timeIt(fn, iterations);
    runs.push(t.wall);
    cpu.push(t.cpu);
  }
  const med = median(runs);
  console.log(
    `${label.padEnd(34)} median ${med.toFixed(1).padStart(8)} us/call  ${Math.round(1e6 / med).toString().padStart(7)} calls/s  cpu ${median(cpu).toFixed(1).padStart(7)} us  (runs: ${runs.map((x) => x.toFixed(0)).join(' ')})`,
  );
  return med;
}

const STAGES = ['analyze reply', 'analyze incoming', 'hesitation', 'empathy', 'formality', 'directness', 'signals', 'human_likeness', 'whole call'] as const;

/**
 * Where the time of a profile-free call goes: the engine's measuring steps run in its order on
 * fresh analyses (so no per-analysis memo is reused), each step timed on its own, and the whole
 * call right after in the same iteration, so both see the same machine load. Medians per step.
 */
function breakdown(text: string, iterations: number): number[] {
  const perRun: number[][] = STAGES.map(() => []);
  const laps = new Float64Array(STAGES.length);
  let t = process.hrtime.bigint();
  const lap = (k: number) => {
    const now = process.hrtime.bigint();
    laps[k] += Number(now - t);
    t = now;
  };
  const once = () => {
    t = process.hrtime.bigint();
    const reply = analyze(text);
    lap(0);
    const incoming = analyze(INCOMING);
    lap(1);
    const hesitation = measureHesitation(reply, false);
    lap(2);
    measureEmpathy(reply, incoming, false);
    lap(3);
    measureFormality(reply, false);
    lap(4);
    measureDirectness(reply, incoming, hesitation, false);
    lap(5);
    const signals = detectSignals(reply, {});
    lap(6);
    measureTextHumanLikeness(reply, signals, false);
    lap(7);
    scoreText({ text, incoming: INCOMING, delaySeconds: DELAY });
    lap(8);
  };
  for (let i = 0; i < Math.min(iterations, 500); i++) once();
  for (let r = 0; r < RUNS; r++) {
    laps.fill(0);
    for (let i = 0; i < iterations; i++) once();
    STAGES.forEach((_, k) => perRun[k].push(laps[k] / 1e3 / iterations));
  }
  return perRun.map(median);
}

const [load1, load5] = loadavg();
console.log(`engine bench: ${RUNS} runs each, single thread, node ${process.version}, load average ${load1.toFixed(2)} ${load5.toFixed(2)}\n`);
for (const words of [20, 100, 400]) {
  const text = replyOf(words);
  const actual = analyze(text).words;
  const iterations = words >= 400 ? 800 : words >= 100 ? 3000 : 8000;
  const input = { text, incoming: INCOMING, delaySeconds: DELAY };
  const analyzeOnly = bench(`${actual} words: analyze only`, () => analyze(text), iterations);
  const none = bench(`${actual} words: no profile`, () => scoreText(input), iterations);
  const one = bench(`${actual} words: one profile`, () => scoreText({ ...input, profile: PROFILE }), iterations);
  const all = bench(`${actual} words: all 28 profiles`, () => scoreText({ ...input, profile: 'all' }), iterations);
  bench(`${actual} words: one profile, deep`, () => scoreText({ ...input, profile: PROFILE, deep: true }), iterations);
  console.log(`${''.padEnd(34)} all/one = ${(all / one).toFixed(2)}x, analyze share of one = ${((100 * analyzeOnly) / one).toFixed(0)}%`);
  const stages = breakdown(text, Math.max(200, iterations / 4));
  const whole = stages[STAGES.length - 1];
  const measured = stages.slice(0, -1).reduce((s, x) => s + x, 0);
  console.log(`${''.padEnd(34)} breakdown of a no-profile call (medians, us):`);
  STAGES.forEach((name, k) => console.log(`${''.padEnd(36)}${name.padEnd(18)} ${stages[k].toFixed(1).padStart(7)}`));
  console.log(`${''.padEnd(36)}${'rest of the call'.padEnd(18)} ${(whole - measured).toFixed(1).padStart(7)}  (whole call minus the stages: validation, rounding)`);
  console.log(`${''.padEnd(36)}${'one profile adds'.padEnd(18)} ${(one - none).toFixed(1).padStart(7)}  (verdict and advice: one-profile minus no-profile median)\n`);
}
