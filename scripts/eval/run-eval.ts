// `npm run eval`: development figures of the scorer on ../shared/datasets/dev, each beside its
// target. Out-of-domain figures come first and carry the bars (the outside measurement
// is on domains the fit never saw); the in-domain ones follow for comparison. Dev data only.
// Every figure is also written to shared/validation/eval-figures.json, which the public validation
// page (GET /api/validation) is built from.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EvalRow } from './eval-row';
import * as humanLikeness from './human-likeness.eval';
import * as formality from './formality.eval';
import * as empathy from './empathy.eval';
import * as directness from './directness.eval';
import * as hesitation from './hesitation.eval';
import * as language from './language.eval';
import * as advice from './advice.eval';
import { DEV_DATA_DIR, devPath } from '../lib/dev-data';
import { SCORER_VERSION } from '../../shared/scoring';
import { buildEvalReport, type EvalSource } from '../../shared/validation/eval-report';

const SECTIONS: [string, { evaluate(): Promise<EvalRow[]> }][] = [
  ['human_likeness', humanLikeness],
  ['formality', formality],
  ['empathy', empathy],
  ['directness', directness],
  ['hesitation', hesitation],
  ['language', language],
  ['advice', advice],
];

/** The development data folders each section reads (their SOURCE.md says where each came from and its licence). */
const SECTION_DATA: Record<string, string[]> = {
  human_likeness: ['fastdetect-gpt34', 'fastdetect-openmodels', 'm4-llama2', 'mgtbench-truthfulqa', 'grid-reddit-chatgpt', 'detectrl-yelp'],
  formality: ['squinky-formality', 'm4-llama2', 'fastdetect-openmodels'],
  empathy: ['epitome', 'wassa23-empathic-conversations', 'annomi-mi-quality', 'esconv-failed', 'yeomans-receptiveness-warmth'],
  directness: ['stanford-politeness', 'email-politeness-alipanah', 'yeomans-receptiveness-warmth', 'esconv-failed'],
  hesitation: ['szeged-uncertainty-wiki', 'email-politeness-alipanah'],
  language: ['esconv-failed', 'epitome', 'squinky-formality', 'stanford-politeness', 'fastdetect-gpt34', 'fastdetect-openmodels', 'm4-llama2', 'mgtbench-truthfulqa'],
  advice: ['epitome', 'esconv-failed', 'mgtbench-truthfulqa'],
};

const FIGURES_PATH = resolve(__dirname, '..', '..', 'shared', 'validation', 'eval-figures.json');

/** A data folder named by the title line of its SOURCE.md (read at run time; no data is copied). */
function sourceOf(folder: string): EvalSource {
  const title = readFileSync(devPath(folder, 'SOURCE.md'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('# '));
  return { folder, title: title ? title.slice(2).trim() : folder };
}

function cell(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

async function run(): Promise<void> {
  console.log(`humanlike eval  scorer ${SCORER_VERSION}  data ${DEV_DATA_DIR}\n`);
  const rows: EvalRow[] = [];
  const sections: { dimension: string; sources: EvalSource[]; rows: EvalRow[] }[] = [];
  for (const [name, section_] of SECTIONS) {
    const started = Date.now();
    const section = await section_.evaluate();
    rows.push(...section);
    sections.push({ dimension: name, sources: SECTION_DATA[name].map(sourceOf), rows: section });
    process.stderr.write(`${name}: ${section.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const header = `${cell('metric', 52)} ${cell('dataset', 50)} ${cell('n', 6)} ${cell('value', 8)} ${cell('target', 8)} ok`;
  const parts = [
    ['OUT OF DOMAIN (a genre, generator or source the fit did not use): the bars are judged here', rows.filter((r) => r.metric.startsWith('OOD'))],
    ['IN DOMAIN (for comparison)', rows.filter((r) => !r.metric.startsWith('OOD'))],
  ] as const;
  for (const [title, part] of parts) {
    console.log(`\n${title}`);
    console.log(header);
    console.log('-'.repeat(header.length));
    for (const r of part) {
      const ok = r.pass === undefined ? '' : r.pass ? 'yes' : 'NO';
      console.log(`${cell(r.metric, 52)} ${cell(r.dataset, 50)} ${cell(String(r.n), 6)} ${cell(r.value.toFixed(3), 8)} ${cell(r.target, 8)} ${ok}`);
    }
  }
  const failed = rows.filter((r) => r.pass === false);
  console.log(`\n${rows.filter((r) => r.pass !== undefined).length - failed.length}/${rows.filter((r) => r.pass !== undefined).length} targets met`);
  writeFileSync(FIGURES_PATH, JSON.stringify(buildEvalReport(SCORER_VERSION, sections), null, 2) + '\n');
  console.log(`figures written to ${FIGURES_PATH} (served by GET /api/validation)`);
}

run().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
