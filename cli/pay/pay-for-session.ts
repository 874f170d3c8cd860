import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

/** The scoring request of a paid session; `wallet_address` is filled in from the key. */
export interface SessionRequest {
  proposed_text: string;
  response_delay_seconds: number;
  target_profile: string;
  tier?: 'basic' | 'deep';
  incoming_message?: string;
  share_for_calibration?: boolean;
}

/** Options of {@link payForSession}. */
export interface PayForSessionOptions {
  /** Base URL of the humanlike API, e.g. http://localhost:3000. */
  url: string;
  /** The payer's private key; it signs the EIP-3009 authorization locally and is never sent. */
  privateKey: `0x${string}`;
  request: SessionRequest;
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
  /** Retries of the paid request, with the SAME authorization, after a lost answer (default 2). */
  replays?: number;
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
  paid?: Pick<PaymentRequirements, 'amount' | 'asset' | 'network' | 'payTo'>;
  /** The answer replayed an earlier delivery of the same payment. */
  replayed: boolean;
}

/** A refusal to pay: the quote broke the caller's limits or could not be read. */
export class PaymentRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentRefusedError';
  }
}

const DEFAULT_MAX_AMOUNT = 1_000_000n;

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/**
 * Makes a paid `POST /api/simulate` end to end, as an agent that has never seen the service would:
 * send the request, take the 402 challenge, sign its first requirement (x402 v2, exact EIP-3009)
 * with the official x402 client, retry the same request once with PAYMENT-SIGNATURE, and decode
 * the receipt. A lost or failed answer (network error, 5xx) is retried with the same authorization
 * and the same request only: the server replays it, and a payment is never made twice.
 * @param options - API URL, private key, the request, limits
 * @returns status, body, decoded receipt and what was paid
 * @throws PaymentRefusedError when the quote exceeds `maxAmount` or cannot be read
 */
export async function payForSession(options: PayForSessionOptions): Promise<PaidSessionOutcome> {
  const doFetch = options.fetch ?? fetch;
  const account = privateKeyToAccount(options.privateKey);
  const endpoint = `${options.url.replace(/\/+$/, '')}/api/simulate`;
  const body = JSON.stringify({ ...options.request, wallet_address: account.address });
  const baseHeaders: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (options.idempotencyKey) baseHeaders['Idempotency-Key'] = options.idempotencyKey;

  const first = await doFetch(endpoint, { method: 'POST', headers: baseHeaders, body });
  const firstBody = await readBody(first);
  if (first.status !== 402) return { status: first.status, body: firstBody, replayed: first.headers.get('x-payment-replayed') === 'true' };

  const limit = options.maxAmount ?? DEFAULT_MAX_AMOUNT;
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  // The official client's spend controls: default assets, plus the caller's allowed tokens, each capped.
  client.setSpendControls({
    maxAmountPerPayment: false,
    allowedAssets: (options.allowedAssets ?? []).map((a) => ({ network: a.network as `${string}:${string}`, asset: a.asset, maxAmountPerPayment: limit.toString() })),
  });
  client.registerPolicy((_version, requirements) => requirements.filter((r) => BigInt(r.amount) <= limit));
  const http = new x402HTTPClient(client);
  let required: PaymentRequired;
  try {
    required = http.getPaymentRequiredResponse((name) => first.headers.get(name), firstBody);
  } catch (err) {
    throw new PaymentRefusedError(`the 402 challenge could not be read: ${(err as Error).message}`);
  }
  const offer = required.accepts[0];
  if (!offer) throw new PaymentRefusedError('the 402 challenge offers nothing this client can pay');
  if (BigInt(offer.amount) > limit) {
    throw new PaymentRefusedError(`the quote asks ${offer.amount} atomic units, above the limit of ${limit}`);
  }
  let payload;
  try {
    payload = await http.createPaymentPayload(required);
  } catch (err) {
    throw new PaymentRefusedError(`refused to sign: ${(err as Error).message}`);
  }
  const paidHeaders = { ...baseHeaders, ...http.encodePaymentSignatureHeader(payload) };
  const paid = { amount: offer.amount, asset: offer.asset, network: offer.network, payTo: offer.payTo };

  const replays = options.replays ?? 2;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await doFetch(endpoint, { method: 'POST', headers: paidHeaders, body });
    } catch (err) {
      if (attempt < replays) continue; // the answer was lost: replay the same authorization
      throw err;
    }
    if (res.status >= 500 && attempt < replays) {
      await res.arrayBuffer();
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      continue;
    }
    const answer = await readBody(res);
    let receipt: SettleResponse | undefined;
    try {
      receipt = http.getPaymentSettleResponse((name) => res.headers.get(name));
    } catch {
      receipt = undefined; // no receipt header (a refusal before settlement)
    }
    return { status: res.status, body: answer, receipt, paid, replayed: res.headers.get('x-payment-replayed') === 'true' };
  }
}
