import { expect } from 'chai';
import { findProfile } from '../../../../shared/profiles';
import { scoreText } from '../../../../shared/scoring';

const REPLY = "Sure thing! Your order ships tomorrow, and I've added free express delivery.";

describe('targets explained', function () {
  it('returns the profile targets and the adjusted empathy target with its reason when the incoming message is practical', function () {
    const r = scoreText({ text: REPLY, incoming: 'When does my order ship?', profile: 'upbeat-support-agent' }).result!;
    const own = findProfile('upbeat-support-agent')!.targets;
    expect(r.targets.profile).to.deep.equal({ empathy: own.empathy, formality: own.formality, directness: own.directness, hesitation: own.hesitation });
    expect(r.targets.adjusted.empathy).to.be.below(own.empathy);
    expect(r.targets.adjusted.empathy).to.equal(r.dimensions.empathy.target);
    expect(r.targets.adjustments).to.have.length(1);
    expect(r.targets.adjustments[0]).to.include({ dimension: 'empathy', profile: own.empathy, adjusted: r.dimensions.empathy.target });
    expect(r.targets.adjustments[0].reason).to.match(/emotional load 0(\.\d+)? .*0\.5 \+ 0\.5/);
    for (const dim of ['formality', 'directness', 'hesitation'] as const) expect(r.dimensions[dim].target).to.equal(own[dim]);
  });

  it('uses the profile targets as they are, with no adjustments, without an incoming message', function () {
    const r = scoreText({ text: REPLY, profile: 'upbeat-support-agent' }).result!;
    expect(r.targets.adjusted).to.deep.equal(r.targets.profile);
    expect(r.targets.adjustments).to.deep.equal([]);
    expect(r.dimensions.empathy.target).to.equal(findProfile('upbeat-support-agent')!.targets.empathy);
  });
});
