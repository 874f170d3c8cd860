// `npx tsx scripts/fit/golden-scores.ts`: writes test/fixtures/golden-scores.json, the full JSON
// result of every golden case and the analysis of every golden text, which
// test/unit/shared/scoring/golden.test.ts then requires byte for byte. Regenerate only for an intended
// change of results (and bump ENGINE_VERSION with it), never to make a speed change pass.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { analyze } from '../../shared/scoring/analyze';
import { GOLDEN_CASES, goldenOutcome, goldenTexts, snapshotAnalysis } from '../../test/fixtures/golden-inputs';

const OUT = resolve(__dirname, '../../test/fixtures/golden-scores.json');

// One case or analysis per line, so a diff points at the input that moved.
const cases = GOLDEN_CASES.map((c) => JSON.stringify({ name: c.name, input: c.input, result: goldenOutcome(c.input) }));
const analyses = goldenTexts().map((text) => JSON.stringify(snapshotAnalysis(analyze(text))));
writeFileSync(OUT, `{"cases":[\n${cases.join(',\n')}\n],"analyses":[\n${analyses.join(',\n')}\n]}\n`);
console.log(`wrote ${cases.length} cases and ${analyses.length} analyses to ${OUT}`);
