import { expect } from 'chai';
import type { DimensionMeasure } from '../../shared/scoring/measure-types';

/**
 * Asserts that every contribution span of a measure lies inside the text and is its exact slice.
 * @param text - the original text
 * @param m - the measure
 */
export function expectSpansSliceText(text: string, m: DimensionMeasure): void {
  for (const c of m.contributions) {
    for (const s of c.spans) {
      expect(s.start, c.feature).to.be.within(0, text.length);
      expect(s.end, c.feature).to.be.within(s.start, text.length);
      expect(s.text, c.feature).to.equal(text.slice(s.start, s.end));
    }
  }
}

/**
 * Asserts the contribution order every measure promises: |delta| descending, then feature name.
 * @param m - the measure
 */
export function expectSortedByImpact(m: DimensionMeasure): void {
  for (let i = 1; i < m.contributions.length; i++) {
    const prev = m.contributions[i - 1];
    const cur = m.contributions[i];
    const d = Math.abs(prev.delta) - Math.abs(cur.delta);
    expect(d >= 0, `${prev.feature} before ${cur.feature}`).to.equal(true);
    if (d === 0) expect(prev.feature < cur.feature, `${prev.feature} before ${cur.feature}`).to.equal(true);
  }
}
