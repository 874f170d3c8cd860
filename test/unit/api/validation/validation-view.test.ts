import { expect } from 'chai';
import { publicValidation } from '../../../../api/validation/validation-view';
import { formatFigure, renderValidationPage } from '../../../../api/validation/validation-page';
import { SCORER_VERSION } from '../../../../shared/scoring/version';
import { buildEvalReport } from '../../../../shared/validation/eval-report';
import { EVAL_FIGURES } from '../../../../shared/validation/figures';

// Rows as the eval makes them (scripts/eval/eval-row.ts): an "OOD" prefix marks out-of-domain figures.
const REPORT = buildEvalReport('9.9.9+abc', [
  {
    dimension: 'empathy',
    sources: [{ folder: 'wassa23-empathic-conversations', title: 'WASSA 2023 <turns>' }],
    rows: [
      { metric: 'OOD Spearman empathy, wassa23 held out (fit on the rest)', dataset: 'wassa23 dev turns', n: 2199, value: 0.39512, target: '>= 0.35', pass: true },
      { metric: 'OOD AUROC empathy, annomi held out (fit on the rest)', dataset: 'annomi', n: 4882, value: 0.6991, target: '>= 0.70', pass: false },
      { metric: 'in-domain Spearman empathy, epitome fold 0', dataset: 'epitome <reddit>', n: 620, value: 0.37, target: '' },
    ],
  },
  {
    dimension: 'directness',
    sources: [],
    rows: [{ metric: 'OOD Spearman directness vs politeness', dataset: 'not measurable', n: 0, value: NaN, target: '' }],
  },
]);

describe('validation page built from the eval output', () => {
  const view = publicValidation(REPORT, '9.9.9+abc');

  it('groups each dimension, out-of-domain figures apart from in-domain ones, with its data', () => {
    expect(view.dimensions.map((d) => d.dimension)).to.deep.equal(['empathy', 'directness']);
    const empathy = view.dimensions[0];
    expect(empathy.data).to.deep.equal([{ folder: 'wassa23-empathic-conversations', title: 'WASSA 2023 <turns>' }]);
    expect(empathy.out_of_domain).to.deep.equal([
      { metric: 'Spearman empathy, wassa23 held out (fit on the rest)', dataset: 'wassa23 dev turns', n: 2199, value: 0.395, target: '>= 0.35', pass: true },
      { metric: 'AUROC empathy, annomi held out (fit on the rest)', dataset: 'annomi', n: 4882, value: 0.699, target: '>= 0.70', pass: false },
    ]);
    expect(empathy.in_domain).to.deep.equal([{ metric: 'in-domain Spearman empathy, epitome fold 0', dataset: 'epitome <reddit>', n: 620, value: 0.37, target: null, pass: null }]);
    expect(view.dimensions[1].out_of_domain[0].value).to.equal(null);
    expect([view.bars_met, view.bars]).to.deep.equal([1, 2]);
    expect(view.command).to.equal('npm run eval');
    expect(view.human_agreement).to.equal('/api/validation/human-agreement');
  });

  it('says whether the figures belong to the running engine', () => {
    expect(view.current).to.equal(true);
    expect(publicValidation(REPORT, '9.9.10+abc').current).to.equal(false);
    expect(renderValidationPage(publicValidation(REPORT, '9.9.10+abc'))).to.contain('earlier engine');
    expect(renderValidationPage(view)).to.not.contain('earlier engine');
  });

  it('prints every figure, its bar and verdict, escaped, and the command', () => {
    const html = renderValidationPage(view);
    for (const d of view.dimensions) for (const f of [...d.out_of_domain, ...d.in_domain]) expect(html).to.contain(formatFigure(f.value));
    expect(html).to.contain('0.395').and.contain('0.699').and.contain('not measurable');
    expect(html).to.contain('&gt;= 0.35').and.contain('not met');
    expect(html).to.contain('WASSA 2023 &lt;turns&gt;').and.contain('epitome &lt;reddit&gt;');
    expect(html).to.not.contain('<turns>');
    expect(html).to.contain('<code>npm run eval</code>');
    expect(html).to.contain('href="/api/validation/human-agreement"');
  });

  it('ships figures that the eval printed for this very engine (re-run npm run eval after a scoring change)', () => {
    expect(EVAL_FIGURES.scorer_version).to.equal(SCORER_VERSION);
    expect(EVAL_FIGURES.command).to.equal('npm run eval');
    expect(EVAL_FIGURES.sections.map((s) => s.dimension)).to.deep.equal(['human_likeness', 'formality', 'empathy', 'directness', 'hesitation', 'language', 'advice']);
    for (const s of EVAL_FIGURES.sections) {
      expect(s.figures.length, s.dimension).to.be.greaterThan(0);
      expect(s.sources.length, s.dimension).to.be.greaterThan(0);
    }
  });
});
