import { expect } from 'chai';
import { presentWeaknessMap } from '../../../../api/stress-test/present-weakness-map';
import { STRESS_TEST_WEAKEST } from '../../../../jobs';
import { renderPaidAnswer } from '../../../../cli/pay/render-answer';
import { scoreWeaknessMap } from '../../../../shared/scoring';

describe('renderPaidAnswer', function () {
  this.timeout(20_000);

  it('prints a JSON Lines body as the lines the server sent, not as one quoted string', function () {
    const jsonl = '{"type":"manifest","records":1}\n{"type":"session","n":1}\n{"type":"end","records":1}\n';
    const out = renderPaidAnswer({ status: 200, body: jsonl, replayed: false }, { product: 'script-check' });
    expect(out).to.equal(jsonl);
    expect(out.split('\n').filter(Boolean).map((line) => JSON.parse(line).type)).to.deep.equal(['manifest', 'session', 'end']);
  });

  it('summarizes a stress test: pass count, strongest and weakest matchups, and a fix per weak profile', function () {
    const map = scoreWeaknessMap({ text: 'Certainly! I hope this helps!', delaySeconds: 3 }, STRESS_TEST_WEAKEST);
    const { body } = presentWeaknessMap(map, 'r-1');
    const out = renderPaidAnswer({ status: 200, body: { ...body, referral_code: 'HL-1' }, replayed: false }, { product: 'stress-test' });
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).to.equal(`Passes ${body.passed_count} of 28 profiles; mean EQ score ${body.mean_eq_score}; human-likeness ${body.human_likeness}`);
    const weakest = body.weakest as Array<{ profile: string; eq_score: number }>;
    expect(lines[2]).to.equal(`Weakest:   ${weakest.map((p) => `${p.profile} ${p.eq_score}`).join(', ')}`);
    expect(lines.filter((l) => l.startsWith('Fix for '))).to.have.length(STRESS_TEST_WEAKEST);
    expect(lines.at(-1)).to.equal('Result id: r-1; your referral code: HL-1');
  });

  it('summarizes a rewrite: the score before and after, and the rewritten text', function () {
    const body = {
      result_id: 'r-2',
      target_profile: 'terse-senior-engineer',
      changed: true,
      before: { eq_score: 32, passed: false },
      after: { eq_score: 81, passed: true },
      edits: [{}, {}],
      rewritten_text: 'Restart the router.',
      improvement: 'Next step: none.',
      referral_code: 'HL-2',
    };
    const out = renderPaidAnswer({ status: 200, body, replayed: true }, { product: 'rewrite' });
    expect(out).to.equal(
      'EQ score 32 (not passed) -> 81 (passed) against terse-senior-engineer; 2 edits\nRewritten: Restart the router.\nNext step: none.\nResult id: r-2; your referral code: HL-2 (replayed delivery)\n',
    );
  });

  it('prints a refusal with its status and body', function () {
    expect(renderPaidAnswer({ status: 409, body: { error: { code: 'payment_already_used' } }, replayed: false }, { product: 'simulate' })).to.equal('HTTP 409: {"error":{"code":"payment_already_used"}}\n');
  });
});
