// `npm run eval:rewrite`: does the rewrite raise the average EQ score toward every profile?
// Reads a deterministic sample of replies from the development data at run time (never copied
// into the project; never the holdout): EPITOME Reddit responses (the seeker's post as the
// incoming message; the rows re-rated in the held-out expert set left out, as its SOURCE.md asks)
// and MGTBench TruthfulQA ChatGPT answers (the question as the incoming message). Each reply is
// rewritten toward each of the 28 profiles; the before and after scores come from the same engine.
import { readFileSync } from 'node:fs';
import { PROFILES } from '../../shared/profiles';
import { rewriteText } from '../../shared/rewrite/rewrite';
import { SCORER_VERSION } from '../../shared/scoring';
import { DEV_DATA_DIR, devPath, foldOf, readCsv, truthfulqaPairs } from '../lib/dev-data';

const PER_SOURCE = Number(process.env.REWRITE_EVAL_PER_SOURCE ?? 40);

interface Reply {
  source: string;
  id: string;
  text: string;
  incoming: string;
}

// A fixed sample: the items whose FNV hash of the id sorts first (no randomness, no stored split).
function sample<T extends { id: string }>(rows: T[], n: number): T[] {
  const key = (id: string) => foldOf(id, 2 ** 31);
  return [...rows].sort((a, b) => key(a.id) - key(b.id) || a.id.localeCompare(b.id)).slice(0, n);
}

function sourceTitle(folder: string): string {
  return readFileSync(devPath(folder, 'SOURCE.md'), 'utf8').split('\n')[0].replace(/^#\s*/, '');
}

function replies(): Reply[] {
  const epitome = readCsv('epitome', 'epitome_merged.csv')
    .filter((r) => r.in_kumar2025_sample !== '1' && r.response_post.trim() && r.seeker_post.trim())
    .map((r) => ({ source: 'epitome', id: `${r.sp_id}/${r.rp_id}`, text: r.response_post, incoming: r.seeker_post }));
  const chatgpt = truthfulqaPairs()
    .filter((p) => p.ai.trim())
    .map((p) => ({ source: 'truthfulqa-chatgpt', id: p.id, text: p.ai, incoming: p.question }));
  return [...sample(dedupe(epitome), PER_SOURCE), ...sample(chatgpt, PER_SOURCE)];
}

function dedupe(rows: Reply[]): Reply[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const cell = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function run(): void {
  console.log(`humanlike rewrite eval  scorer ${SCORER_VERSION}  data ${DEV_DATA_DIR}`);
  for (const folder of ['epitome', 'mgtbench-truthfulqa']) console.log(`  ${folder}: ${sourceTitle(folder)}`);
  const items = replies();
  console.log(`  ${items.length} replies (${PER_SOURCE} per source) x ${PROFILES.length} profiles, no delay (timing is not a text edit)\n`);
  const header = `${cell('profile', 30)} ${cell('n', 4)} ${cell('before', 7)} ${cell('after', 7)} ${cell('gain', 6)} ${cell('changed', 8)} ${cell('pass before', 12)} ${cell('pass after', 10)} raised`;
  console.log(header);
  console.log('-'.repeat(header.length));
  const started = Date.now();
  let raisedProfiles = 0;
  const all = { before: [] as number[], after: [] as number[] };
  for (const profile of PROFILES) {
    const rows = items.map((it) => rewriteText({ text: it.text, profile: profile.id, incoming: it.incoming }));
    const before = rows.map((r) => r.before.eq_score);
    const after = rows.map((r) => r.after.eq_score);
    const down = rows.filter((r) => r.after.eq_score < r.before.eq_score).length;
    if (down > 0) throw new Error(`${profile.id}: ${down} rewrites lowered the score`);
    const raised = mean(after) > mean(before);
    if (raised) raisedProfiles++;
    all.before.push(...before);
    all.after.push(...after);
    const pct = (n: number) => `${((100 * n) / rows.length).toFixed(0)}%`;
    console.log(
      `${cell(profile.id, 30)} ${cell(String(rows.length), 4)} ${cell(mean(before).toFixed(1), 7)} ${cell(mean(after).toFixed(1), 7)} ${cell(`+${(mean(after) - mean(before)).toFixed(1)}`, 6)} ${cell(pct(rows.filter((r) => r.changed).length), 8)} ${cell(pct(rows.filter((r) => r.before.passed).length), 12)} ${cell(pct(rows.filter((r) => r.after.passed).length), 10)} ${raised ? 'yes' : 'NO'}`,
    );
  }
  console.log(`\nall profiles: before ${mean(all.before).toFixed(1)}, after ${mean(all.after).toFixed(1)}; average raised for ${raisedProfiles}/${PROFILES.length} profiles; no rewrite lowered a score (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (raisedProfiles < PROFILES.length) process.exitCode = 1;
}

run();
