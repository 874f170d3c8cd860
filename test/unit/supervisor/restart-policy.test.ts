import { expect } from 'chai';
import { CrashHistory, DEFAULT_RESTART_POLICY } from '../../../supervisor/restart-policy';

describe('supervisor/restart-policy CrashHistory', function () {
  it('restarts after 1, 2, 4, 8 s and gives up on the fifth crash within a minute', function () {
    const history = new CrashHistory(DEFAULT_RESTART_POLICY);
    const decisions = [0, 2_000, 5_000, 10_000, 20_000].map((at) => history.record(at));
    expect(decisions).to.deep.equal([
      { restart: true, delayMs: 1_000, crashes: 1 },
      { restart: true, delayMs: 2_000, crashes: 2 },
      { restart: true, delayMs: 4_000, crashes: 3 },
      { restart: true, delayMs: 8_000, crashes: 4 },
      { restart: false, crashes: 5 },
    ]);
  });

  it('forgets crashes older than the window, so a rare crash always restarts quickly', function () {
    const history = new CrashHistory(DEFAULT_RESTART_POLICY);
    const decisions = [0, 61_000, 122_000, 183_000, 244_000, 305_000].map((at) => history.record(at));
    expect(decisions.map((d) => d.restart)).to.deep.equal([true, true, true, true, true, true]);
    expect(decisions.at(-1)).to.deep.equal({ restart: true, delayMs: 1_000, crashes: 1 });
  });

  it('caps the delay', function () {
    const history = new CrashHistory({ maxCrashes: 100, windowMs: 60_000, firstDelayMs: 1_000, maxDelayMs: 5_000 });
    for (let i = 0; i < 5; i++) history.record(i);
    expect(history.record(6)).to.deep.equal({ restart: true, delayMs: 5_000, crashes: 6 });
  });
});
