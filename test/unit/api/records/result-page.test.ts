import { expect } from 'chai';
import type { PublicSession } from '../../../../api/records/public-row';
import { renderResultPage } from '../../../../api/records/result-page';

const scored: PublicSession = {
  result_id: '6f1c2b8e-0d7a-4a53-9a4e-2b1f0c3d4e5f',
  product: 'simulate',
  kind: 'scored_session',
  label: 'Scored session',
  tier: 'basic',
  profile: { id: 'grief-support-peer', name: 'Grief <support> peer' },
  eq_score: 81.25,
  passed: true,
  network: 'eip155:8453',
  wallet: '0xAbC1…9f3E',
  settled_at: '2026-11-25T10:11:12.345Z',
};

describe('renderResultPage', function () {
  it("shows a scored session's EQ score and verdict, escaped, with the masked wallet", function () {
    const page = renderResultPage(scored);
    expect(page).to.include('<h1>Scored session: Grief &lt;support&gt; peer</h1>');
    expect(page).to.include('<div class="score" aria-label="EQ score">81.3</div>').and.include('data-verdict="passed">Passed<');
    expect(page).to.include('<dd>0xAbC1…9f3E</dd>').and.include('<dd>2026-11-25 10:11:12 UTC</dd>');
    expect(page).to.not.include('<support>');
  });

  it('says what another product is instead of showing a score', function () {
    const page = renderResultPage({ ...scored, product: 'script-check', kind: 'analysis', label: 'Script check', tier: null, profile: null, eq_score: null, passed: null });
    expect(page).to.include('A script check is not scored against a profile, so it has no EQ score or verdict.');
    expect(page).to.not.include('class="score"').and.not.include('data-verdict');
  });
});
