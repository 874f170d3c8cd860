/**
 * A wallet address or transaction hash as public output shows it: the first 6 and last 4
 * characters, the one form every public output uses.
 * @param value - address or hash
 * @returns e.g. `0x1234…abcd`; short values are masked whole
 */
export function maskIdentifier(value: string): string {
  if (value.length <= 12) return '…';
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}
