import { expect } from 'chai';
import { modelTiming, superhumanFloor } from '../../../../shared/scoring/timing';
import { findProfile } from '../../../../shared/profiles';

const texter = findProfile('warm-casual-texter')!.tempo;

describe('modelTiming', () => {
  it('reproduces the worked example of the design brief', () => {
    const m = modelTiming({ delaySeconds: 40, replyChars: 60, incomingWords: 15, incomingQuestions: 0 }, texter);
    expect(m.expected).to.be.closeTo(39.1, 0.1);
    expect(m.window[0]).to.be.closeTo(19.3, 0.2);
    expect(m.window[1]).to.be.closeTo(112.5, 0.5);
    expect(m.floor).to.be.closeTo(6.3, 0.01);
    expect(m.fit).to.equal(1);
    expect(m.superhuman).to.equal(false);
  });

  it('flags a reply composed faster than any human as superhuman', () => {
    const m = modelTiming({ delaySeconds: 1, replyChars: 400, incomingWords: 30, incomingQuestions: 1 }, texter);
    expect(m.superhuman).to.equal(true);
    expect(m.fit).to.be.below(0.05);
  });

  it('penalizes too fast more than equally too slow', () => {
    const base = { replyChars: 60, incomingWords: 15, incomingQuestions: 0 };
    const expected = modelTiming({ ...base, delaySeconds: 1 }, texter).expected;
    const fast = modelTiming({ ...base, delaySeconds: expected / 6 }, texter).fit;
    const slow = modelTiming({ ...base, delaySeconds: expected * 6 }, texter).fit;
    expect(fast).to.be.below(slow);
  });

  it('adds think time per question in the incoming message, up to four', () => {
    const base = { delaySeconds: 10, replyChars: 60, incomingWords: 15 };
    const none = modelTiming({ ...base, incomingQuestions: 0 }, texter).components.think;
    const two = modelTiming({ ...base, incomingQuestions: 2 }, texter).components.think;
    const nine = modelTiming({ ...base, incomingQuestions: 9 }, texter).components.think;
    expect(two).to.equal(none * 1.5);
    expect(nine).to.equal(none * 2);
  });

  it('has a profile-independent floor that grows with reply and message length', () => {
    expect(superhumanFloor(0, 0)).to.equal(0);
    expect(superhumanFloor(500, 0)).to.be.above(superhumanFloor(100, 0));
    expect(superhumanFloor(100, 60)).to.be.above(superhumanFloor(100, 0));
  });
});
