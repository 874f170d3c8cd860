import { createHmac } from 'node:crypto';
import { callerIdentity } from '../../shared/http/client-address';

/**
 * Reduces a client address to what identifies a caller: IPv4 as is (also when written as IPv6, in
 * any notation), IPv6 to its /64 prefix, since one subscriber usually holds a whole /64 and could
 * otherwise rotate addresses to reset the free tier. Ports, brackets and zero padding are dropped,
 * so every way of writing one address is one caller.
 * @param address - the client address (`ctx.ip`, resolved from the trusted proxy hops)
 * @returns the normalized identity string
 * @throws AppError invalid_client_address (400) when the address is no IP address
 */
export function normalizeClientAddress(address: string): string {
  return callerIdentity(address);
}

/**
 * The free-tier caller key: HMAC-SHA-256 of the normalized client address under a configured
 * secret. The raw address is never stored or logged.
 * @param address - the client address
 * @param key - CALLER_HASH_KEY
 * @returns 64 lowercase hex characters
 * @throws AppError invalid_client_address (400) when the address is no IP address
 */
export function callerHashFor(address: string, key: string): string {
  return createHmac('sha256', key).update(normalizeClientAddress(address)).digest('hex');
}
