/**
 * Small-count suppression for aggregates about people: a figure that rests on fewer than
 * {@link MIN_PEOPLE} distinct people is withheld, so that nobody can be singled out by comparing
 * figures or knowing who else took part.
 */

/** The fewest distinct people a published figure may rest on. */
export const MIN_PEOPLE = 5;

/** A figure that may have been withheld. */
export interface Suppressible<T> {
  /** The figure, or null when withheld. */
  value: T | null;
  /** True when withheld because fewer than {@link MIN_PEOPLE} people are behind it. */
  suppressed: boolean;
}

/**
 * A figure, withheld when fewer than {@link MIN_PEOPLE} people are behind it.
 * @param value - the figure
 * @param people - how many distinct people it rests on
 * @returns the figure or null, and whether it was withheld
 */
export function suppressBelowMin<T>(value: T, people: number): Suppressible<T> {
  return people < MIN_PEOPLE ? { value: null, suppressed: true } : { value, suppressed: false };
}

/**
 * A count of people, withheld (null) below {@link MIN_PEOPLE}; zero is shown, as "nobody" singles
 * nobody out.
 * @param people - the count
 * @returns the count, or null
 */
export function suppressedCount(people: number): number | null {
  return people === 0 || people >= MIN_PEOPLE ? people : null;
}
