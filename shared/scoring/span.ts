import type { Span } from './types';

/**
 * Builds a span whose text is always the exact slice of the original.
 * @param text - the original reply
 * @param start - first code unit
 * @param end - code unit after the last
 * @returns the span
 */
export function spanOf(text: string, start: number, end: number): Span {
  return { start, end, text: text.slice(start, end) };
}
