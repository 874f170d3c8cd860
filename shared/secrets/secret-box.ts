import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for secrets the service must use again (a pilot sponsor's agent API key),
 * unlike tokens, which are only compared and so kept as hashes. AES-256-GCM with a fresh 96-bit
 * nonce per value; the key is derived with HKDF-SHA256 from a configured secret and a purpose
 * label, so one configured secret never serves two purposes with the same key. The stored form is
 * `v1.<nonce>.<ciphertext>.<tag>` (base64url), bound to its purpose and row by the associated data.
 */
export interface SecretBox {
  /**
   * @param plain - the secret
   * @param context - what the value belongs to (e.g. the sponsor's id), authenticated with it
   * @returns the stored form
   */
  seal(plain: string, context: string): string;
  /**
   * @param sealed - the stored form
   * @param context - the same context as when sealed
   * @returns the secret, or undefined when the value was altered, moved to another row, or sealed under another key
   */
  open(sealed: string, context: string): string | undefined;
}

/**
 * A box for one purpose.
 * @param secret - the configured secret (at least 32 characters)
 * @param purpose - a fixed label, e.g. `pilot-agent-key`
 * @returns the box
 */
export function createSecretBox(secret: string, purpose: string): SecretBox {
  const key = derivedKey(secret, purpose);
  const aad = (context: string) => Buffer.from(`${purpose}\u0000${context}`, 'utf8');
  return {
    seal(plain, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', nonce, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed, context) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== 'v1' || nonce === undefined || body === undefined || tag === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * A 32-byte key for one purpose, derived from a configured secret with HKDF-SHA256, so one secret
 * never serves two purposes with the same key and no key is the secret itself (a box's key, an
 * HMAC key for a keyed hash).
 * @param secret - the configured secret
 * @param purpose - a fixed label
 * @returns the key
 */
export function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), Buffer.from(`humanlike:${purpose}`, 'utf8'), 32));
}
