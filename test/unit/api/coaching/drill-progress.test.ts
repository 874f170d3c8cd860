import { expect } from 'chai';
import { standingOf } from '../../../../api/coaching/drill-progress';
import type { Pack } from '../../../../shared/coaching/packs';

const PACK: Pack = {
  id: 'p',
  name: 'P',
  description: 'test pack',
  average_bar: 80,
  drills: [
    { id: 'p/1', title: 'one', situation: 's1', target_profile: 'warm-casual-texter', bar: 70 },
    { id: 'p/2', title: 'two', situation: 's2', target_profile: 'terse-senior-engineer', bar: 75 },
  ],
};

const standing = (best: Record<string, number>) => standingOf(PACK, new Map(Object.entries(best)), new Map(Object.keys(best).map((k) => [k, 1])));

describe('standingOf (coaching)', function () {
  it('is incomplete while a drill is unattempted, counting it 0 in the average', function () {
    const s = standing({ 'p/1': 95 });
    expect(s.drills.map((d) => d.best_score)).to.deep.equal([95, null]);
    expect(s).to.include({ drills_cleared: 1, average_score: 47.5, average_cleared: false, complete: false });
  });

  it('is incomplete when every bar is cleared but the average bar is not', function () {
    expect(standing({ 'p/1': 72, 'p/2': 76 })).to.include({ drills_cleared: 2, average_score: 74, average_cleared: false, complete: false });
  });

  it('is incomplete when the average bar is cleared but one drill bar is not', function () {
    expect(standing({ 'p/1': 100, 'p/2': 74.9 })).to.include({ drills_cleared: 1, average_cleared: true, complete: false });
  });

  it('is complete when every bar and the average bar are cleared, a score equal to a bar clearing it', function () {
    expect(standing({ 'p/1': 85, 'p/2': 75 })).to.include({ drills_cleared: 2, average_score: 80, average_cleared: true, complete: true });
  });
});
