// `npm run bench:compare -- <revision>`: the HTTP bench's free and paid figures of an earlier
// revision beside this checkout's, in one run on one machine. This machine's speed moves by a
// fifth from minute to minute, so two benches run on different days cannot tell a refactor's cost
// from the weather; here the two run in turn (base then head, then head then base, ...), one
// round each, so drift falls on both alike, and the report pairs each round's cases.
//
// The base is checked out as a detached git worktree under .bench/ (removed at the end) sharing
// this checkout's node_modules: both sides run on the same dependencies, so what differs is the
// project's own code. Each side runs its own scripts/bench/http.bench.ts (it builds its own tree
// and starts its own web, worker and facilitator, with its own database and queue prefix).
//
// Environment: BENCH_COMPARE_ROUNDS (6: an even count runs each side first
// equally often, and six rounds agreeing by chance is 1 in 32), BENCH_COMPARE_TARGETS (no-op,score,paid: the no-op is
// the same round trip on both sides, so its ratio shows the machine's drift between the two
// runs), BENCH_COMPARE_OUT (write the comparison as JSON there); BENCH_SECONDS,
// BENCH_CONNECTIONS and the other BENCH_* variables pass through to both sides.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compareRuns, formatComparison, type BenchCase } from './compare-figures';

const ROOT = path.resolve(__dirname, '..', '..');
const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? '6');
const TARGETS = process.env.BENCH_COMPARE_TARGETS ?? 'no-op,score,paid';

function out(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function git(args: string[]): string {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

// One side's bench, one round; its own output is kept in a log file and its figures returned.
async function runSide(tree: string, label: string, round: number, workDir: string): Promise<BenchCase[]> {
  const figures = path.join(workDir, `${label}-${round}.json`);
  const log = path.join(workDir, `${label}-${round}.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(tree, 'scripts/bench/http.bench.ts')], {
    cwd: tree,
    env: { ...process.env, BENCH_ROUNDS: '1', BENCH_TARGETS: TARGETS, BENCH_OUT: figures },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  writeFileSync(log, text);
  if (code !== 0 || !existsSync(figures)) throw new Error(`${label}'s bench (round ${round}) exited with ${code}; its output is in ${log}`);
  return (JSON.parse(readFileSync(figures, 'utf8')) as { results: BenchCase[] }).results;
}

async function main(): Promise<void> {
  const revision = process.argv[2];
  if (!revision) throw new Error('usage: npm run bench:compare -- <revision> (a commit, tag or branch to compare this checkout with)');
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_COMPARE_ROUNDS must be an integer >= 1');
  const baseSha = git(['rev-parse', '--verify', `${revision}^{commit}`]);
  const headSha = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const baseName = baseSha.slice(0, 7);
  const headName = `${headSha.slice(0, 7)}${dirty ? '+' : ''}`;
  const benchDir = path.join(ROOT, '.bench');
  mkdirSync(benchDir, { recursive: true });
  const baseTree = path.join(benchDir, `compare-${baseName}-${process.pid}`);
  const workDir = mkdtempSync(path.join(tmpdir(), 'humanlike-compare-'));
  git(['worktree', 'add', '--detach', baseTree, baseSha]);
  const removeTree = () => spawnSync('git', ['worktree', 'remove', '--force', baseTree], { cwd: ROOT });
  process.once('SIGINT', () => {
    removeTree();
    process.exit(130);
  });
  try {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(baseTree, 'node_modules'));
    out(`bench compare: base ${baseName} (${git(['log', '-1', '--format=%s', baseSha]).slice(0, 80)})`);
    out(`               head ${headName}${dirty ? ' (with uncommitted changes)' : ''}`);
    out(`               ${ROUNDS} round(s) of ${TARGETS}, the sides in turn; each side's output in ${workDir}`);
    const base: BenchCase[][] = [];
    const head: BenchCase[][] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order = round % 2 === 1 ? (['base', 'head'] as const) : (['head', 'base'] as const);
      for (const side of order) {
        const started = Date.now();
        const cases = await runSide(side === 'base' ? baseTree : ROOT, side, round, workDir);
        (side === 'base' ? base : head).push(cases);
        out(`round ${round}: ${side} done in ${Math.round((Date.now() - started) / 1000)} s`);
      }
    }
    const comparisons = compareRuns(base, head);
    out();
    for (const line of formatComparison(comparisons, baseName, headName)) out(line);
    out();
    out('head/base: the median of the rounds\' paired ratios, then each round\'s; a figure changed only where every round agrees (a no-op ratio far from 1 is the machine\'s swing between the two runs).');
    if (process.env.BENCH_COMPARE_OUT) {
      writeFileSync(process.env.BENCH_COMPARE_OUT, `${JSON.stringify({ base: baseSha, head: headSha, dirty, rounds: ROUNDS, targets: TARGETS, comparisons }, null, 2)}\n`);
    }
    rmSync(workDir, { recursive: true, force: true });
  } finally {
    removeTree();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench compare failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
