import { DEFAULT_LEGACY_SOL_NETWORK, isSolAddress, isSolSignature, type LegacySolPayment } from './legacy-sol-payment';
import { PaymentHeaderError } from './payment-header-error';

// A real header is about 250 characters; Node caps all headers at 16 KiB. The bound keeps the
// JSON parse of an attacker's header small.
const MAX_HEADER_LENGTH = 4096;

// Standard base64 (x402 core's Base64EncodedRegex), not base64url: `-` and `_` are refused
// rather than silently decoded as Buffer would.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function base64Bytes(value: string): Buffer {
  const padded = value.endsWith('=');
  // Unpadded input is tolerated (some clients strip it), but a length of 4n+1 is never base64.
  if (!BASE64.test(value) || (padded ? value.length % 4 !== 0 : value.length % 4 === 1)) {
    throw new PaymentHeaderError('not_base64', 'X-PAYMENT must be standard base64 (A-Z, a-z, 0-9, +, /, = padding).');
  }
  return Buffer.from(value, 'base64');
}

/**
 * Decodes a legacy `X-PAYMENT` header (x402 v1, scheme `exact`, described in docs/payments.md): standard
 * base64 of UTF-8 JSON `{x402Version: 1, scheme: "exact", network, payload: {signature, payer}}`.
 * Only the form is checked here; whether the transaction exists and paid enough is
 * `verifySolTransfer`'s job. Unknown extra members are ignored, as x402 v1 servers do.
 * @param value - the header value as received
 * @param network - the configured legacy network id the proof must name (`solana`, `solana-devnet`)
 * @returns the typed payment proof
 * @throws PaymentHeaderError (400 `invalid_payment_header`) with `reason` naming the first problem
 */
export function decodeSolPaymentHeader(value: string, network: string = DEFAULT_LEGACY_SOL_NETWORK): LegacySolPayment {
  const trimmed = value.trim();
  if (trimmed === '') throw new PaymentHeaderError('empty', 'X-PAYMENT is empty.');
  if (trimmed.length > MAX_HEADER_LENGTH) {
    throw new PaymentHeaderError('too_long', `X-PAYMENT is longer than ${MAX_HEADER_LENGTH} characters.`);
  }
  let text: string;
  try {
    text = strictUtf8.decode(base64Bytes(trimmed));
  } catch (err) {
    if (err instanceof PaymentHeaderError) throw err;
    throw new PaymentHeaderError('not_utf8', 'X-PAYMENT does not decode to UTF-8 text.');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PaymentHeaderError('not_json', 'X-PAYMENT does not decode to JSON.');
  }
  if (!isPlainObject(json)) throw new PaymentHeaderError('not_object', 'X-PAYMENT must decode to a JSON object.');

  if (json.x402Version !== 1) {
    throw new PaymentHeaderError(
      'wrong_version',
      json.x402Version === 2
        ? 'X-PAYMENT carries x402 version 1; send version 2 payments in PAYMENT-SIGNATURE.'
        : 'X-PAYMENT must have x402Version 1.',
    );
  }
  if (json.scheme !== 'exact') throw new PaymentHeaderError('wrong_scheme', 'X-PAYMENT must have scheme "exact".');
  if (json.network !== network) {
    throw new PaymentHeaderError('wrong_network', `X-PAYMENT must have network "${network}".`);
  }
  const payload = json.payload;
  if (!isPlainObject(payload)) throw new PaymentHeaderError('missing_payload', 'X-PAYMENT must have a payload object.');
  const { signature, payer } = payload;
  if (!isSolSignature(signature)) {
    throw new PaymentHeaderError('bad_signature', 'payload.signature must be a transaction signature: base58 of 64 bytes.');
  }
  if (!isSolAddress(payer)) {
    throw new PaymentHeaderError('bad_payer', 'payload.payer must be a wallet address: base58 of 32 bytes.');
  }
  return { x402Version: 1, scheme: 'exact', network, payload: { signature, payer } };
}
