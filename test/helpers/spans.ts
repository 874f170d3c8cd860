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
