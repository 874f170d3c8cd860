import { expect } from 'chai';
import { CATALOG_JOBS, JOB_SLUGS } from '../../../../shared/catalog/jobs';
import { MATCHER_VERSION, normalizeTerms, recommendJobs } from '../../../../shared/catalog/match-jobs';
import { OFFERINGS, offeringById } from '../../../../shared/catalog/offerings';

// The public contract of the matcher: changing a job, a keyword or a rule changes these answers and
// must come with a new MATCHER_VERSION.
const GOLDEN_JOBS: Array<[string, string[]]> = [
  ['check-replies-before-sending', ['simulate', 'starter-kit']],
  ['embed-check-in-my-app', ['embedded-check', 'bundle']],
  ['stress-test-personalities', ['stress-test']],
  ['agent-check-over-mcp', ['mcp']],
  ['rewrite-robotic-replies', ['rewrite']],
  ['check-script-adherence', ['script-check']],
  ['compare-two-bots', ['duel']],
  ['track-score-progress', ['progress']],
  ['practice-conversations', ['coaching', 'roleplay']],
  ['export-training-data', ['training-dataset']],
];

// query -> [job_slug, score][] in rank order.
const GOLDEN_QUERIES: Array<[string, Array<[string, number]>]> = [
  ['support bot replies', [['check-replies-before-sending', 7]]],
  ["check my support bot's replies before they go out", [['check-replies-before-sending', 10]]],
  ['stress-test my agent across personalities', [['stress-test-personalities', 8], ['agent-check-over-mcp', 1]]],
  ['add a human-likeness check to my agent over MCP', [['agent-check-over-mcp', 4], ['check-replies-before-sending', 3], ['track-score-progress', 1]]],
  ['embed widget in my editor', [['embed-check-in-my-app', 8]]],
  ['rewrite robotic reply', [['rewrite-robotic-replies', 6], ['check-replies-before-sending', 3]]],
  ['script compliance', [['check-script-adherence', 6]]],
  ['compare two bots head to head', [['compare-two-bots', 7], ['check-replies-before-sending', 1]]],
  ['track progress over time', [['track-score-progress', 7]]],
  ['role-play practice', [['practice-conversations', 6]]],
  ['export dataset for fine-tuning', [['export-training-data', 9]]],
  ['REPLIES', [['check-replies-before-sending', 3]]],
  // A tie (2 and 2): the job listed first wins.
  ['training', [['practice-conversations', 2], ['export-training-data', 2]]],
  ['zzz', []],
  ['🙂', []],
];

describe('shared/catalog/match-jobs', function () {
  it('lists exactly the ten curated jobs, in order, each with its offerings', function () {
    expect(MATCHER_VERSION).to.equal('catalog-keywords-1');
    expect(CATALOG_JOBS.map((j) => [j.job_slug, [...j.offering_ids]])).to.deep.equal(GOLDEN_JOBS);
    expect(JOB_SLUGS).to.have.length(10);
    for (const job of CATALOG_JOBS) for (const id of job.offering_ids) expect(offeringById(id), id).to.not.equal(undefined);
  });

  it('matches the fixed queries the same way, every time', function () {
    for (const [query, expected] of GOLDEN_QUERIES) {
      const first = recommendJobs(query).map((m) => [m.job.job_slug, m.score]);
      expect(first, query).to.deep.equal(expected);
      expect(recommendJobs(query).map((m) => [m.job.job_slug, m.score]), `${query} again`).to.deep.equal(first);
    }
  });

  it('reports the keywords it matched as the job writes them, each once', function () {
    expect(recommendJobs('export dataset for fine-tuning')[0].matched_keywords).to.deep.equal(['export', 'dataset', 'fine tune']);
    // "coach" and "coaching" fold to one stem: counted once, at the heavier weight.
    expect(recommendJobs('coach coaching coaches').map((m) => [m.job.job_slug, m.score])).to.deep.equal([['practice-conversations', 3]]);
  });

  it('folds case, punctuation, plurals and -ing endings the same way for queries and keywords', function () {
    expect(normalizeTerms('Role-Play')).to.deep.equal(normalizeTerms('role play'));
    expect(normalizeTerms('replies')).to.deep.equal(normalizeTerms('reply'));
    expect(normalizeTerms('tuning')).to.deep.equal(normalizeTerms('tune'));
    expect(normalizeTerms('ｓｕｐｐｏｒｔ')).to.deep.equal(['support']);
  });

  it('returns at most three jobs', function () {
    expect(recommendJobs('reply embed stress mcp rewrite script duel progress coaching export')).to.have.length(3);
  });
});

describe('shared/catalog/offerings', function () {
  it('lists every paid product, the MCP endpoint, the starter kit and the embedded check with their install kinds', function () {
    expect(OFFERINGS.map((o) => [o.id, o.kind, o.install_kind])).to.deep.equal([
      ['simulate', 'paid_product', 'http_api'],
      ['duel', 'paid_product', 'http_api'],
      ['progress', 'paid_product', 'http_api'],
      ['stress-test', 'paid_product', 'http_api'],
      ['training-dataset', 'paid_product', 'http_api'],
      ['rewrite', 'paid_product', 'http_api'],
      ['script-check', 'paid_product', 'http_api'],
      ['roleplay', 'paid_product', 'http_api'],
      ['coaching', 'paid_product', 'http_api'],
      ['bundle', 'paid_product', 'http_api'],
      ['mcp', 'mcp', 'mcp_config'],
      ['starter-kit', 'starter_kit', 'none'],
      ['embedded-check', 'embed_component', 'snippet'],
    ]);
    expect(offeringById('simulate')).to.include({ url: '/api/simulate' });
    expect(offeringById('simulate')?.price).to.deep.equal({ usdc_units: 50_000, lamports: 270_000 });
    expect(offeringById('nope')).to.equal(undefined);
  });
});
