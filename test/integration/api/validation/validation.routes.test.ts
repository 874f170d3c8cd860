import { expect } from 'chai';
import { publicValidation } from '../../../../api/validation/validation-view';
import { formatFigure } from '../../../../api/validation/validation-page';
import { SCORER_VERSION } from '../../../../shared/scoring/version';
import { EVAL_FIGURES } from '../../../../shared/validation/figures';
import { startTestStack, type TestStack } from '../../../helpers/stack';

describe('GET /api/validation', function () {
  let stack: TestStack;

  before(async function () {
    stack = await startTestStack('validation', { worker: false });
  });
  after(async function () {
    await stack?.close();
  });

  it('serves as JSON exactly what the eval output generates', async function () {
    const res = await stack.http.get('/api/validation.json').expect(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.headers['cache-control']).to.equal('public, max-age=300');
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(publicValidation(EVAL_FIGURES, SCORER_VERSION))));
    expect(res.body.current).to.equal(true);
    const empathy = (res.body.dimensions as { dimension: string; out_of_domain: { metric: string }[] }[]).find((d) => d.dimension === 'empathy');
    expect(empathy?.out_of_domain.map((f) => f.metric)).to.include.members([
      'Spearman empathy, epitome held out (fit on the rest)',
      'Spearman empathy, wassa23 held out (fit on the rest)',
      'AUROC empathy, annomi held out (fit on the rest)',
      'AUROC empathy, esconv held out (fit on the rest)',
    ]);
  });

  it('serves the page with every out-of-domain figure of the eval output', async function () {
    const res = await stack.http.get('/api/validation').expect(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    const html = res.text;
    for (const section of EVAL_FIGURES.sections) {
      expect(html, section.dimension).to.contain(`<section id="${section.dimension}">`);
      for (const f of section.figures.filter((x) => x.out_of_domain)) expect(html, f.metric).to.contain(`<td class="num">${formatFigure(f.value)}</td>`);
    }
    expect(html).to.contain(SCORER_VERSION);
  });

  it('is documented in the OpenAPI document', async function () {
    const res = await stack.http.get('/api/openapi.json').expect(200);
    expect(res.body.paths['/api/validation'].get.responses['200'].content).to.have.property('text/html');
    expect(res.body.paths['/api/validation.json'].get.responses['200'].content['application/json'].schema.required).to.include('dimensions');
  });
});
