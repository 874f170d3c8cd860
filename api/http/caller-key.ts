import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

function expandIPv6(address: string): string[] {
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((h) => h.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * Reduces a client address to what identifies a caller: IPv4 as is (IPv4-mapped IPv6 unwrapped),
 * IPv6 to its /64 prefix, since one subscriber usually holds a whole /64 and could otherwise
 * rotate addresses to reset the free tier.
 * @param address - the client address Koa resolved (after trusted proxy hops)
 * @returns the normalized identity string
 */
export function normalizeClientAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '').split('%')[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(trimmed)) return trimmed;
  if (isIPv6(trimmed) && !trimmed.includes('.')) return `${expandIPv6(trimmed).slice(0, 4).join(':')}::/64`;
  return trimmed.toLowerCase();
}

/**
 * The free-tier caller key: HMAC-SHA-256 of the normalized client address under a configured
 * secret. The raw address is never stored or logged.
 * @param address - the client address
 * @param key - CALLER_HASH_KEY
 * @returns 64 lowercase hex characters
 */
export function callerHashFor(address: string, key: string): string {
  return createHmac('sha256', key).update(normalizeClientAddress(address)).digest('hex');
}
