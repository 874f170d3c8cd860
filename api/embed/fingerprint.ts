import { createHmac } from 'node:crypto';

// A label, so the key derived here is used for nothing else the caller-hash key keys.
const LABEL = 'humanlike embed-check request fingerprint v1';

/** The inputs a key is bound to: changing any one of them under the same key is a conflict. */
export interface FingerprintInputs {
  mode: string;
  draft: string;
  situation?: string;
  incoming?: string;
}

/**
 * Makes the fingerprinter of embedded checks: an HMAC-SHA256 of the check's inputs under a key
 * derived from the server's secret (`CALLER_HASH_KEY`). A plain hash of a short draft could be
 * reversed by trying candidate drafts; without the server's secret it cannot.
 * @param secret - the server secret
 * @returns the fingerprint function (64 hex characters)
 */
export function createFingerprinter(secret: string): (inputs: FingerprintInputs) => string {
  const key = createHmac('sha256', secret).update(LABEL).digest();
  return (inputs) =>
    createHmac('sha256', key)
      // An array, so member order and absent members are part of what is hashed.
      .update(JSON.stringify([inputs.mode, inputs.draft, inputs.situation ?? null, inputs.incoming ?? null]))
      .digest('hex');
}
