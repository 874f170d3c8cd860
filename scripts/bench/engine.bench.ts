// `npm run bench:engine`: single-thread throughput and per-call latency of the scoring engine for
// replies of about 20, 100 and 400 words, against one profile and against all 28. Medians of
// several runs; nothing here is asserted by tests.
import { scoreText } from '../../shared/scoring';
import { analyze } from '../../shared/scoring/analyze';

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

function timeIt(fn: () => void, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e3 / iterations; // microseconds per call
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function bench(label: string, fn: () => void, iterations: number): number {
  for (let i = 0; i < Math.min(iterations, 500); i++) fn(); // warm up the JIT
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) runs.push(timeIt(fn, iterations));
  const med = median(runs);
  console.log(`${label.padEnd(34)} median ${med.toFixed(1).padStart(8)} us/call  ${Math.round(1e6 / med).toString().padStart(7)} calls/s  (runs: ${runs.map((x) => x.toFixed(0)).join(' ')})`);
  return med;
}

console.log(`engine bench: ${RUNS} runs each, single thread, node ${process.version}\n`);
for (const words of [20, 100, 400]) {
  const text = replyOf(words);
  const actual = analyze(text).words;
  const iterations = words >= 400 ? 800 : words >= 100 ? 3000 : 8000;
  const analyzeOnly = bench(`${actual} words: analyze only`, () => analyze(text), iterations);
  const one = bench(`${actual} words: one profile`, () => scoreText({ text, incoming: INCOMING, delaySeconds: 40, profile: 'terse-senior-engineer' }), iterations);
  const all = bench(`${actual} words: all 28 profiles`, () => scoreText({ text, incoming: INCOMING, delaySeconds: 40, profile: 'all' }), iterations);
  bench(`${actual} words: one profile, deep`, () => scoreText({ text, incoming: INCOMING, delaySeconds: 40, profile: 'terse-senior-engineer', deep: true }), iterations);
  console.log(`${''.padEnd(34)} all/one = ${(all / one).toFixed(2)}x, analyze share of one = ${((100 * analyzeOnly) / one).toFixed(0)}%\n`);
}
