import { CliUsageError } from './io';

/**
 * A commander value parser for a number of seconds >= 0. Commander hands negative numbers to it as
 * values, so `--delay -3` gets this range message rather than a parse error.
 * @param flag - the flag, for the message
 * @returns the parser
 */
export function secondsOption(flag: string): (raw: string) => number {
  return (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value < 0) throw new CliUsageError(`${flag} must be a number of seconds >= 0, got "${raw}"`);
    return value;
  };
}

/**
 * Parses `--asset`, which may be given more than once.
 * @param raw - the value
 * @param previous - the addresses given before
 * @returns every address so far
 */
export function tokenAddressOption(raw: string, previous: string[] = []): string[] {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new CliUsageError(`--asset must be a token address, got "${raw}"`);
  return [...previous, raw];
}

/**
 * Parses `--max-amount`: whole atomic units of the token.
 * @param raw - the value
 * @returns the amount
 */
export function atomicUnitsOption(raw: string): bigint {
  if (!/^[0-9]{1,30}$/.test(raw)) throw new CliUsageError(`--max-amount must be a whole number of atomic units, got "${raw}"`);
  return BigInt(raw);
}

/**
 * Parses `--url`: the base URL of a humanlike server.
 * @param raw - the value
 * @returns the URL as given
 */
export function httpUrlOption(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new CliUsageError(`--url must be an http(s) URL such as http://localhost:3000, got "${raw}"`);
  return raw;
}

/**
 * Parses `--network`: a CAIP-2 chain id such as eip155:8453.
 * @param raw - the value
 * @returns the network
 */
export function networkOption(raw: string): string {
  if (!/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(raw)) throw new CliUsageError(`--network must be a CAIP-2 network such as eip155:8453, got "${raw}"`);
  return raw;
}
