// `npm run eval`: development figures of the scorer on ../shared/datasets/dev, each beside its
// target. Out-of-domain figures come first and carry the bars (the outside measurement
// is on domains the fit never saw); the in-domain ones follow for comparison. Dev data only.
import type { EvalRow } from './eval-row';
import * as humanLikeness from './human-likeness.eval';
import * as formality from './formality.eval';
import * as empathy from './empathy.eval';
import * as directness from './directness.eval';
import * as hesitation from './hesitation.eval';
import * as language from './language.eval';
import * as advice from './advice.eval';
import { DEV_DATA_DIR } from '../lib/dev-data';
import { SCORER_VERSION } from '../../shared/scoring';

const SECTIONS: [string, { evaluate(): Promise<EvalRow[]> }][] = [
  ['human_likeness', humanLikeness],
  ['formality', formality],
  ['empathy', empathy],
  ['directness', directness],
  ['hesitation', hesitation],
  ['language', language],
  ['advice', advice],
];

function cell(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

async function run(): Promise<void> {
  console.log(`humanlike eval  scorer ${SCORER_VERSION}  data ${DEV_DATA_DIR}\n`);
  const rows: EvalRow[] = [];
  for (const [name, section_] of SECTIONS) {
    const started = Date.now();
    const section = await section_.evaluate();
    rows.push(...section);
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
}

run().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
