import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// AES-256-GCM: a 12-byte nonce and a 16-byte tag, stored as version | nonce | tag | ciphertext.
const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A key for sealing one kind of secret, derived from the server's secret with HKDF-SHA-256 under
 * the purpose as its info, so each purpose has its own key and none is the server secret itself.
 * @param serverSecret - the server's secret (CALLER_HASH_KEY)
 * @param purpose - what the key seals, e.g. `catalog-partner-signing-secret`
 * @returns 32 bytes
 */
export function sealingKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), Buffer.from('humanlike-sealed-secret', 'utf8'), Buffer.from(purpose, 'utf8'), 32));
}

/**
 * Encrypts a secret the service must be able to use again (a webhook verification secret cannot
 * be stored as a hash: verifying a signature needs the secret itself). The associated data binds
 * the sealed value to its owner, so a sealed value copied to another row does not open.
 * @param key - from {@link sealingKey}
 * @param secret - the plaintext secret
 * @param owner - what it belongs to (e.g. the partner id)
 * @returns the sealed bytes
 */
export function sealSecret(key: Buffer, secret: string, owner: string): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(owner, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
}

/**
 * Opens a sealed secret.
 * @param key - the key it was sealed with
 * @param sealed - from {@link sealSecret}
 * @param owner - the owner it was sealed for
 * @returns the secret
 * @throws Error when the value was altered, sealed for another owner or under another key
 */
export function openSecret(key: Buffer, sealed: Buffer, owner: string): string {
  if (sealed.length < 1 + NONCE_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error('not a sealed secret');
  const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
  const tag = sealed.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(owner, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(1 + NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
