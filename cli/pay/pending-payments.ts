import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PaymentRequirements } from '@x402/core/types';

/** What a payment signs for: amount (atomic units), token, network, recipient. */
export type PaidTerms = Pick<PaymentRequirements, 'amount' | 'asset' | 'network' | 'payTo'>;

/**
 * A signed payment whose paid request got no final answer yet. It holds the signed authorization
 * (the PAYMENT-SIGNATURE header), never the private key; the server settles it at most once, so
 * sending it again can never charge twice.
 */
export interface PendingPayment {
  version: 1;
  /** When it was signed (ISO 8601). */
  signedAt: string;
  /** The URL it pays for. */
  endpoint: string;
  /** The headers of the paid request, PAYMENT-SIGNATURE included, sent again exactly. */
  headers: Record<string, string>;
  paid: PaidTerms;
}

/** The pending payments of one state directory, one file per paid request. */
export interface PendingPaymentStore {
  /** The file that holds (or would hold) a key's payment. */
  fileOf(key: string): string;
  /** The payment kept under a key, if any. @throws Error when the file exists but cannot be read */
  load(key: string): Promise<PendingPayment | undefined>;
  /**
   * Keeps a payment under a key, unless one is kept there already (another run of the same
   * command got there first): then that one is returned, and must be used instead.
   */
  keep(key: string, payment: PendingPayment): Promise<PendingPayment>;
  /** Forgets a key's payment (after a final answer). */
  remove(key: string): Promise<void>;
}

/**
 * The key of a paid request: a hash of the URL, the exact body and the payer, so that only the
 * same command (same URL, same request, same payer) resumes a payment.
 * @param endpoint - the URL posted to
 * @param body - the exact request body
 * @param payer - the paying address
 * @returns 64 hex characters
 */
export function pendingPaymentKey(endpoint: string, body: string, payer: string): string {
  return createHash('sha256').update(JSON.stringify(['humanlike-pending-payment-v1', endpoint, body, payer.toLowerCase()])).digest('hex');
}

function isPendingPayment(value: unknown): value is PendingPayment {
  const p = value as Partial<PendingPayment> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    p.version === 1 &&
    typeof p.signedAt === 'string' &&
    typeof p.endpoint === 'string' &&
    typeof p.headers === 'object' &&
    p.headers !== null &&
    Object.values(p.headers).every((v) => typeof v === 'string') &&
    typeof p.paid === 'object' &&
    p.paid !== null &&
    ['amount', 'asset', 'network', 'payTo'].every((k) => typeof (p.paid as Record<string, unknown>)[k] === 'string')
  );
}

function isCode(err: unknown, code: string): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === code;
}

/**
 * The file store of pending payments: `<dir>/pending-payments/<key>.json`, mode 0600 in a 0700
 * directory (a signed authorization can be submitted by whoever reads it, to pay the server).
 * @param dir - the state directory (see `defaultStateDir`)
 * @returns the store
 */
export function createPendingPaymentStore(dir: string): PendingPaymentStore {
  const folder = join(dir, 'pending-payments');
  const fileOf = (key: string) => join(folder, `${key}.json`);

  async function load(key: string): Promise<PendingPayment | undefined> {
    let text: string;
    try {
      text = await readFile(fileOf(key), 'utf8');
    } catch (err) {
      if (isCode(err, 'ENOENT')) return undefined;
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isPendingPayment(parsed)) {
      // Never sign anew over it: it may hold an authorization the server has settled or will.
      throw new Error(`the pending payment ${fileOf(key)} cannot be read; it may hold a signed payment still to be settled, so nothing new is signed while it is there`);
    }
    return parsed;
  }

  return {
    fileOf,
    load,
    async keep(key, payment) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      // Write a private temporary file, then link it in place: the link fails if another run kept
      // one first, and a reader never sees a half-written file.
      const temporary = join(folder, `.${key}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(temporary, `${JSON.stringify(payment)}\n`, { mode: 0o600, flag: 'wx' });
      try {
        for (;;) {
          try {
            await link(temporary, fileOf(key));
            return payment;
          } catch (err) {
            if (!isCode(err, 'EEXIST')) throw err;
          }
          const kept = await load(key);
          if (kept) return kept;
          // Removed between the two calls (the other run got its final answer): try again.
        }
      } finally {
        await unlink(temporary).catch(() => undefined);
      }
    },
    async remove(key) {
      try {
        await unlink(fileOf(key));
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw err;
      }
    },
  };
}
