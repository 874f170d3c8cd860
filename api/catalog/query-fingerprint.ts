import { createHmac } from 'node:crypto';
import { derivedKey } from '../../shared/secrets/secret-box';

/**
 * What the service keeps of a recommend query, for its own log line: the length in code points and
 * a keyed hash (HMAC-SHA-256 under a key derived from the server secret, first 16 hex characters),
 * so repeated queries can be told apart in the logs without the text being readable, or guessable
 * from a dictionary without the key.
 * @param serverSecret - CALLER_HASH_KEY
 * @returns the fingerprint function
 */
export function queryFingerprinter(serverSecret: string): (query: string) => { query_length: number; query_hash: string } {
  const key = derivedKey(serverSecret, 'catalog-query-log');
  return (query) => ({ query_length: [...query].length, query_hash: createHmac('sha256', key).update(query, 'utf8').digest('hex').slice(0, 16) });
}
