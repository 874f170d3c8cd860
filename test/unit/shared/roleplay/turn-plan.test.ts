import { expect } from 'chai';
import { ROOM_TURNS, SWAP_AT_TURN, slotOf, turnScore } from '../../../../shared/roleplay/turn-plan';

describe('the role-play turn plan', function () {
  it('alternates ask and help, and swaps the chairs at turn 5', function () {
    expect(ROOM_TURNS).to.equal(8);
    expect(SWAP_AT_TURN).to.equal(5);
    const plan = Array.from({ length: ROOM_TURNS }, (_, i) => slotOf(i + 1)).map((s) => `${s.chair}:${s.role}`);
    expect(plan).to.deep.equal([
      'opener:asker',
      'joiner:helper',
      'opener:asker',
      'joiner:helper',
      'joiner:asker',
      'opener:helper',
      'joiner:asker',
      'opener:helper',
    ]);
  });

  it('has no turn 0 or 9', function () {
    expect(() => slotOf(0)).to.throw(RangeError);
    expect(() => slotOf(9)).to.throw(RangeError);
  });

  it('scores a help on its EQ score and its reading, an ask on its EQ score', function () {
    expect(turnScore('asker', 80, null)).to.equal(80);
    expect(turnScore('helper', 80, true)).to.equal(85);
    expect(turnScore('helper', 80, false)).to.equal(60);
  });
});
