import { homedir } from 'node:os';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { findDefaultAsset } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { formatUsdc } from '../../shared/money';
import { answerCode, describeFetchFailure, isFinalAnswer, retryAfterMs } from './paid-answer';
import { PaymentPendingError, PaymentRefusedError, ServerUnreachableError } from './pay-errors';
import { createPendingPaymentStore, pendingPaymentKey, type PaidTerms, type PendingPayment } from './pending-payments';
import { defaultStateDir } from './state-dir';

export { PaymentPendingError, PaymentRefusedError, ServerUnreachableError } from './pay-errors';
export type { PaidTerms } from './pending-payments';

/** The scoring request of a paid session; `wallet_address` is filled in from the key. */
export interface SessionRequest {
  proposed_text: string;
  response_delay_seconds: number;
  target_profile: string;
  tier?: 'basic' | 'deep';
  incoming_message?: string;
  share_for_calibration?: boolean;
}

/**
 * The body of another paid product (e.g. `{ reply_text, approved_facts }` for `/api/script-check`),
 * sent as it is; `wallet_address` is filled in from the key.
 */
export type ProductRequest = Readonly<Record<string, unknown>>;

/** The path of a paid simulate session, the default product. */
export const SIMULATE_PATH = '/api/simulate';

/** What {@link payForSession} reports while it works (the CLI prints these). */
export type PayEvent =
  /** A payment signed by an earlier call of the same request got no final answer: it is sent again instead of a new one. */
  | { type: 'resuming'; signedAt: string; paid: PaidTerms; file: string }
  /** No final answer yet; the same authorization is sent again after `waitMs`. */
  | { type: 'retrying'; problem: string; waitMs: number };

/** Options of {@link payForSession}. */
export interface PayForSessionOptions {
  /** Base URL of the humanlike API, e.g. http://localhost:3000. */
  url: string;
  /** The payer's private key; it signs the EIP-3009 authorization locally and is never sent. */
  privateKey: `0x${string}`;
  /** The paid product's path (default `/api/simulate`), e.g. `/api/script-check`. */
  path?: string;
  /** The request body: a simulate session, or the body of the product at `path`. */
  request: SessionRequest | ProductRequest;
  /** Refuse to sign for more than this many atomic units (default 1,000,000 = 1 USDC). */
  maxAmount?: bigint;
  /**
   * Tokens besides the x402 default assets (Base USDC) this client may pay with, e.g. the test USDC
   * of the development chain that `npm start` prints. A server cannot make the client sign for a
   * token it did not allow.
   */
  allowedAssets?: Array<{ network: string; asset: string }>;
  /** Sent as Idempotency-Key. */
  idempotencyKey?: string;
  /**
   * The Accept header (default `application/json`), e.g. `application/jsonl` for the training
   * dataset as JSON Lines. A body that is not one JSON document comes back as its text.
   */
  accept?: string;
  /**
   * How long (ms) to keep sending the same authorization while the answer is not final (no
   * answer, 5xx, 402 `settlement_failed`), honouring Retry-After. Default 30,000; 0 sends it once.
   */
  retryForMs?: number;
  /**
   * Where a signed payment without a final answer is kept, to be resumed by the next call with the
   * same URL, request and payer. Default: `$HUMANLIKE_STATE_DIR`, else `$XDG_STATE_HOME/humanlike`,
   * else `~/.local/state/humanlike`.
   */
  stateDir?: string;
  /** Told when a pending payment is resumed and before each retry. */
  onEvent?: (event: PayEvent) => void;
  fetch?: typeof fetch;
}

/** The outcome of a paid call. */
export interface PaidSessionOutcome {
  /** HTTP status of the final answer. */
  status: number;
  body: unknown;
  /** The decoded PAYMENT-RESPONSE receipt, when one came. */
  receipt?: SettleResponse;
  /** What was signed (undefined when no payment was asked for). */
  paid?: PaidTerms;
  /** The answer replayed an earlier delivery of the same payment. */
  replayed: boolean;
  /** When the payment sent was signed by an earlier call and resumed by this one: its signing time. */
  resumedFrom?: string;
}

const DEFAULT_MAX_AMOUNT = 1_000_000n;
const DEFAULT_RETRY_FOR_MS = 30_000;
const MAX_BACKOFF_MS = 5_000;

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

function receiptOf(res: Response): SettleResponse | undefined {
  const header = res.headers.get('payment-response') ?? res.headers.get('x-payment-response');
  if (!header) return undefined; // a refusal before settlement
  try {
    return decodePaymentResponseHeader(header);
  } catch {
    return undefined;
  }
}

function isAllowed(offer: PaymentRequirements, allowed: PayForSessionOptions['allowedAssets']): boolean {
  if (findDefaultAsset(offer.asset, offer.network)) return true;
  return (allowed ?? []).some(
    (a) => a.asset.toLowerCase() === offer.asset.toLowerCase() && (a.network === offer.network || (a.network.endsWith(':*') && offer.network.startsWith(a.network.slice(0, -1)))),
  );
}

/**
 * Signs the quote of a 402 with the official x402 client, within the caller's limits.
 * @returns the headers of the paid request and what they pay
 */
async function signQuote(
  first: Response,
  firstBody: unknown,
  account: PrivateKeyAccount,
  options: PayForSessionOptions,
  baseHeaders: Record<string, string>,
): Promise<{ headers: Record<string, string>; paid: PaidTerms }> {
  const limit = options.maxAmount ?? DEFAULT_MAX_AMOUNT;
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  const http = new x402HTTPClient(client);
  let required: PaymentRequired;
  try {
    required = http.getPaymentRequiredResponse((name) => first.headers.get(name), firstBody);
  } catch (err) {
    throw new PaymentRefusedError('unreadable_challenge', `the 402 challenge could not be read: ${(err as Error).message}`);
  }
  const offer = required.accepts.find((r) => r.scheme === 'exact' && r.network.startsWith('eip155:'));
  if (!offer) throw new PaymentRefusedError('unreadable_challenge', 'the 402 challenge offers nothing this client can pay (it pays the exact scheme on EVM networks)');
  const terms = { amount: offer.amount, asset: offer.asset, network: offer.network, payTo: offer.payTo };
  if (!isAllowed(offer, options.allowedAssets)) {
    throw new PaymentRefusedError('asset_not_allowed', `the quoted asset ${offer.asset} on ${offer.network} is not allowed: only x402 default assets (such as Base USDC) and tokens the caller allows are paid`, terms);
  }
  if (!/^[0-9]+$/.test(offer.amount) || BigInt(offer.amount) > limit) {
    throw new PaymentRefusedError('above_limit', `the quote asks ${offer.amount} atomic units (${formatUsdc(offer.amount)}), above the limit of ${limit} (${formatUsdc(limit)})`, terms);
  }
  // The official client's spend controls check the same again, and sign exactly the offer checked above.
  client.setSpendControls({
    maxAmountPerPayment: false,
    allowedAssets: (options.allowedAssets ?? []).map((a) => ({ network: a.network as `${string}:${string}`, asset: a.asset, maxAmountPerPayment: limit.toString() })),
  });
  client.registerPolicy((_version, requirements) => requirements.filter((r) => r.scheme === offer.scheme && r.network === offer.network && r.asset === offer.asset && r.amount === offer.amount && r.payTo === offer.payTo));
  let payload;
  try {
    payload = await http.createPaymentPayload(required);
  } catch (err) {
    throw new PaymentRefusedError('signing_failed', `refused to sign: ${(err as Error).message}`, terms);
  }
  return { headers: { ...baseHeaders, ...http.encodePaymentSignatureHeader(payload) }, paid: terms };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Makes a paid POST to a product (`/api/simulate` unless `path` names another) end to end, as an agent that has never seen the service would:
 * send the request, take the 402 challenge, sign its EVM requirement (x402 v2, exact EIP-3009)
 * with the official x402 client, send the same request with PAYMENT-SIGNATURE, and decode the
 * receipt.
 *
 * A paid request whose answer is not final (no answer, a 5xx, a 402 `settlement_failed`) may have
 * been charged, so a new payment is never signed for it: the same authorization is sent again
 * with the exact same request until a final answer comes or `retryForMs` runs out. The signed
 * payment is kept in a 0600 file under `stateDir` from before it is first sent until a final
 * answer; a later call with the same URL, request and payer resumes it instead of signing.
 * @param options - API URL, private key, the request, limits, retry window, state directory
 * @returns status, body, decoded receipt and what was paid
 * @throws ServerUnreachableError when the server cannot be reached before anything is signed
 * @throws PaymentRefusedError when the quote breaks the caller's limits or cannot be read
 * @throws PaymentPendingError when a signed payment got no final answer in time (it is kept)
 */
export async function payForSession(options: PayForSessionOptions): Promise<PaidSessionOutcome> {
  const doFetch = options.fetch ?? fetch;
  const account = privateKeyToAccount(options.privateKey);
  const endpoint = `${options.url.replace(/\/+$/, '')}${options.path ?? SIMULATE_PATH}`;
  const body = JSON.stringify({ ...options.request, wallet_address: account.address });
  const store = createPendingPaymentStore(options.stateDir ?? defaultStateDir(process.env, homedir()));
  const key = pendingPaymentKey(endpoint, body, account.address);

  let pending = await store.load(key);
  let resumed = pending !== undefined;
  if (!pending) {
    const baseHeaders: Record<string, string> = { 'Content-Type': 'application/json', Accept: options.accept ?? 'application/json' };
    if (options.idempotencyKey) baseHeaders['Idempotency-Key'] = options.idempotencyKey;
    let first: Response;
    let firstBody: unknown;
    try {
      first = await doFetch(endpoint, { method: 'POST', headers: baseHeaders, body });
      firstBody = await readBody(first);
    } catch (err) {
      throw new ServerUnreachableError(endpoint, describeFetchFailure(err), err);
    }
    if (first.status !== 402) return { status: first.status, body: firstBody, replayed: first.headers.get('x-payment-replayed') === 'true' };
    const signed = await signQuote(first, firstBody, account, options, baseHeaders);
    const fresh: PendingPayment = { version: 1, signedAt: new Date().toISOString(), endpoint, headers: signed.headers, paid: signed.paid };
    // Kept before it is first sent: a crash or a kill mid-request must not lose it. Another run of
    // the same command may have kept one first: then that one is sent, and this one never is.
    pending = await store.keep(key, fresh);
    resumed = pending !== fresh;
  }
  if (resumed) options.onEvent?.({ type: 'resuming', signedAt: pending.signedAt, paid: pending.paid, file: store.fileOf(key) });

  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    let res: Response | undefined;
    let answer: unknown;
    let problem = `no answer from ${endpoint}`;
    try {
      // The form asked for now, even for a payment a run with another Accept signed: it pays the same.
      res = await doFetch(endpoint, { method: 'POST', headers: { ...pending.headers, Accept: options.accept ?? 'application/json' }, body });
      answer = await readBody(res);
    } catch (err) {
      res = undefined; // no answer, or one cut off: the payment may have gone through
      problem = `no answer from ${endpoint}: ${describeFetchFailure(err)}`;
    }
    let wait: number | undefined;
    if (res) {
      if (isFinalAnswer(res.status, answer)) {
        await store.remove(key);
        return { status: res.status, body: answer, receipt: receiptOf(res), paid: pending.paid, replayed: res.headers.get('x-payment-replayed') === 'true', ...(resumed ? { resumedFrom: pending.signedAt } : {}) };
      }
      const code = answerCode(answer);
      problem = `HTTP ${res.status}${code ? ` ${code}` : ''}`;
      wait = retryAfterMs(res.headers.get('retry-after'), Date.now());
    }
    wait ??= Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
    const elapsed = Date.now() - started;
    if (elapsed + wait > retryForMs) {
      throw new PaymentPendingError({ file: store.fileOf(key), signedAt: pending.signedAt, lastProblem: problem, status: res?.status, body: answer, retriedForMs: elapsed });
    }
    options.onEvent?.({ type: 'retrying', problem: problem, waitMs: wait });
    await sleep(wait);
  }
}
