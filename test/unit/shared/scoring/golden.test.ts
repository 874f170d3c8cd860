import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ScoreInput } from '../../../../shared/scoring';
import { analyze } from '../../../../shared/scoring/analyze';
import { measureDirectness } from '../../../../shared/scoring/directness';
import { measureEmpathy } from '../../../../shared/scoring/empathy';
import { measureFormality } from '../../../../shared/scoring/formality';
import { measureHesitation } from '../../../../shared/scoring/hesitation';
import { measureTextHumanLikeness } from '../../../../shared/scoring/human-likeness';
import { detectSignals } from '../../../../shared/scoring/signals';
import { GOLDEN_CASES, goldenOutcome, goldenTexts, snapshotAnalysis } from '../../../fixtures/golden-inputs';

interface GoldenFile {
  cases: { name: string; input: ScoreInput; result: unknown }[];
  analyses: { text: string }[];
}

// Written by scripts/fit/golden-scores.ts. Speed work must leave every byte of it unchanged.
const GOLDEN = JSON.parse(readFileSync(resolve(__dirname, '../../../fixtures/golden-scores.json'), 'utf8')) as GoldenFile;

describe('golden scores', () => {
  it('covers exactly the golden inputs (regenerate after adding a case)', () => {
    expect(GOLDEN.cases.map((c) => JSON.stringify({ name: c.name, input: c.input }))).to.deep.equal(
      GOLDEN_CASES.map((c) => JSON.stringify({ name: c.name, input: c.input })),
    );
    expect(GOLDEN.analyses.map((a) => a.text)).to.deep.equal(goldenTexts());
  });

  for (const c of GOLDEN.cases) {
    it(`scores "${c.name}" byte for byte as recorded`, () => {
      expect(JSON.stringify(goldenOutcome(c.input))).to.equal(JSON.stringify(c.result));
    });
  }

  it('tags and tokenizes every golden text exactly as recorded', () => {
    for (const recorded of GOLDEN.analyses) {
      expect(JSON.stringify(snapshotAnalysis(analyze(recorded.text))), recorded.text).to.equal(JSON.stringify(recorded));
    }
  });

  it('measures the same values when asked for values alone (no evidence)', () => {
    for (const c of GOLDEN.cases) {
      const reply = analyze(c.input.text);
      const incoming = c.input.incoming?.trim() ? analyze(c.input.incoming) : undefined;
      const hesitation = measureHesitation(reply);
      const bare = [
        measureHesitation(reply, false),
        measureEmpathy(reply, incoming, false),
        measureFormality(reply, false),
        measureDirectness(reply, incoming, measureHesitation(reply, false), false),
        measureTextHumanLikeness(reply, detectSignals(reply), false),
      ];
      const full = [hesitation, measureEmpathy(reply, incoming), measureFormality(reply), measureDirectness(reply, incoming, hesitation), measureTextHumanLikeness(reply, detectSignals(reply))];
      bare.forEach((m, k) => {
        expect(m.value, `${c.name} #${k}`).to.equal(full[k].value);
        expect(m.contributions, `${c.name} #${k}`).to.deep.equal([]);
      });
    }
  });

  it('gives the same signals for a profile context whether or not other contexts were asked first', () => {
    const contexts = [{}, { profileFormality: 0.2, typicalWords: 5 }, { profileFormality: 0.9, exemptions: new Set(['em-dash', 'no-contractions']) }, { profileFormality: 0.45 }];
    for (const c of GOLDEN.cases) {
      const shared = analyze(c.input.text);
      for (const ctx of [...contexts].reverse()) {
        expect(JSON.stringify(detectSignals(shared, ctx)), c.name).to.equal(JSON.stringify(detectSignals(analyze(c.input.text), ctx)));
      }
    }
  });

  it('scores the same when the engine is warm and inputs arrive in reverse order', () => {
    // Per-analysis memos and per-module caches must not leak between calls.
    for (const c of [...GOLDEN.cases].reverse()) expect(JSON.stringify(goldenOutcome(c.input)), c.name).to.equal(JSON.stringify(c.result));
  });
});
