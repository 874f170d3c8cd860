import { ValidationError, type FieldProblem } from '../../../shared/errors';
import { DEFAULT_LEGACY_SOL_NETWORK, isSolAddress, isSolSignature, type LegacySolPayment } from './legacy-sol-payment';

/** The body members of the legacy alternative to `X-PAYMENT` (described in docs/payments.md). */
export interface LegacyPaymentBodyFields {
  /** The transaction id (base58 signature), despite the EVM-sounding name. */
  tx_hash?: unknown;
  /** The paying wallet (base58 address). */
  wallet_address?: unknown;
}

/**
 * Builds the same proof as `decodeSolPaymentHeader` from a body that carries `tx_hash` and
 * `wallet_address` instead of a header. These are body fields, so a malformed one is a request
 * validation failure (422, every failing field listed), like the rest of the body.
 * @param body - the parsed request body (only the two members are read)
 * @param network - the configured legacy network id, copied into the proof
 * @returns the proof, or null when the body has no `tx_hash` (it does not use this alternative)
 * @throws ValidationError (422 `validation_failed`) when `tx_hash` or `wallet_address` is malformed or missing
 */
export function solPaymentFromBody(body: LegacyPaymentBodyFields, network: string = DEFAULT_LEGACY_SOL_NETWORK): LegacySolPayment | null {
  const { tx_hash: rawSignature, wallet_address: rawPayer } = body;
  if (rawSignature === undefined || rawSignature === null) return null;
  const signature = isSolSignature(rawSignature) ? rawSignature : null;
  const payer = isSolAddress(rawPayer) ? rawPayer : null;
  const problems: FieldProblem[] = [];
  if (!signature) {
    problems.push({ path: '/tx_hash', rule: 'format', message: 'must be a transaction signature: base58 of 64 bytes' });
  }
  if (rawPayer === undefined || rawPayer === null) {
    problems.push({ path: '/wallet_address', rule: 'required', message: 'is required together with tx_hash' });
  } else if (!payer) {
    problems.push({ path: '/wallet_address', rule: 'format', message: 'must be a wallet address: base58 of 32 bytes' });
  }
  if (!signature || !payer) throw new ValidationError(problems, 'The legacy payment fields are not valid; see details.fields.');
  return { x402Version: 1, scheme: 'exact', network, payload: { signature, payer } };
}
