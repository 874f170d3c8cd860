import { expect } from 'chai';
import { scoreText, scoreWeaknessMap } from '../../../../shared/scoring';

describe('scoreWeaknessMap: the stress test against all 28 profiles', () => {
  const input = {
    text: 'Certainly! As an AI language model, I understand your frustration. Here are some steps: 1. Rest. 2. Hydrate.',
    delaySeconds: 2,
    incoming: 'ugh my week has been awful and I am so tired',
  };

  it('ranks every profile exactly as scoreText does for profile "all"', () => {
    const map = scoreWeaknessMap(input, 3);
    const all = scoreText({ ...input, profile: 'all' });
    expect(map.profiles).to.have.length(28);
    expect(map.profiles).to.deep.equal(all.profiles);
    expect(map.result).to.deep.equal(all.result);
    expect(map.human_likeness).to.equal(all.human_likeness);
    expect(map.measures).to.deep.equal(all.measures);
  });

  it('gives the full verdict of the worst profiles, worst first, equal to scoring each alone', () => {
    const map = scoreWeaknessMap(input, 3);
    expect(map.weakest.map((v) => v.profile)).to.deep.equal(map.profiles.slice(-3).reverse().map((p) => p.profile));
    for (const verdict of map.weakest) expect(verdict).to.deep.equal(scoreText({ ...input, profile: verdict.profile }).result);
    expect(map.weakest[0].advice.suggested_prompt_addition).to.be.a('string').and.not.empty;
  });

  it('details no profile for 0 and every profile for 28', () => {
    expect(scoreWeaknessMap(input, 0).weakest).to.deep.equal([]);
    expect(scoreWeaknessMap(input, 28).weakest).to.have.length(28);
  });
});
