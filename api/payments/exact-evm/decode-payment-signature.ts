import Ajv from 'ajv';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import type { Eip3009Authorization } from '../../../shared/payments/eip3009';
import { InvalidPaymentHeaderError, type PaymentHeaderName } from '../payment-header-error';


/** A decoded x402 v2 payment with an exact-EVM (EIP-3009) payload. */
export interface ExactEvmPayment {
  payload: PaymentPayload;
  signature: `0x${string}`;
  authorization: Eip3009Authorization;
}

// Headers far larger than any real payment are refused before decoding.
const MAX_HEADER_CHARS = 16_384;

const UINT = '^(0|[1-9][0-9]{0,77})$';
const ADDRESS = '^0x[0-9a-fA-F]{40}$';
const exactEvmPayloadSchema = {
  type: 'object',
  required: ['signature', 'authorization'],
  properties: {
    // 65-byte EOA signatures; longer ones are smart-wallet signatures (ERC-1271/6492).
    signature: { type: 'string', pattern: '^0x([0-9a-fA-F]{2}){65,4096}$' },
    authorization: {
      type: 'object',
      required: ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'],
      properties: {
        from: { type: 'string', pattern: ADDRESS },
        to: { type: 'string', pattern: ADDRESS },
        value: { type: 'string', pattern: UINT },
        validAfter: { type: 'string', pattern: UINT },
        validBefore: { type: 'string', pattern: UINT },
        nonce: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
      },
    },
  },
} as const;
const validateExactEvmPayload = new Ajv({ allErrors: true, strict: true }).compile(exactEvmPayloadSchema);

/**
 * Decodes a `PAYMENT-SIGNATURE` header (x402 v2): standard base64 of UTF-8 JSON, checked against
 * the official PaymentPayload v2 schema, with an exact-EVM payload of one EIP-3009 authorization.
 * Anything malformed is a 400 saying what is wrong, never a 500 and never a charge.
 * @param value - the header value, or the PaymentPayload object itself (x402 over MCP carries it
 *   unencoded in `_meta["x402/payment"]`)
 * @param source - where it was carried, for the error's `details.header`
 * @returns the payment
 * @throws InvalidPaymentHeaderError (400 invalid_payment_header)
 */
export function decodePaymentSignature(value: string | object, source: PaymentHeaderName = 'PAYMENT-SIGNATURE'): ExactEvmPayment {
  const malformed = (reason: string, message: string, extra: Record<string, unknown> = {}) => new InvalidPaymentHeaderError(source, reason, message, extra);
  let decoded: unknown = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') throw malformed('empty', `${source} is empty.`);
    if (trimmed.length > MAX_HEADER_CHARS) throw malformed('too_long', `${source} is longer than ${MAX_HEADER_CHARS} characters.`);
    try {
      decoded = decodePaymentSignatureHeader(trimmed);
    } catch {
      throw malformed('not_base64_json', `${source} must be standard base64 of a JSON object.`);
    }
  } else if (JSON.stringify(value).length > MAX_HEADER_CHARS) {
    throw malformed('too_long', `${source} is longer than ${MAX_HEADER_CHARS} characters.`);
  }
  const parsed = PaymentPayloadV2Schema.safeParse(decoded);
  if (!parsed.success) {
    const version = (decoded as { x402Version?: unknown } | null)?.x402Version;
    if (version !== undefined && version !== 2) {
      throw malformed('wrong_version', `${source} carries x402Version 2; version 1 payments go in X-PAYMENT.`);
    }
    throw malformed('not_payment_payload', `${source} is not an x402 v2 PaymentPayload.`, {
      issues: parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  const payload = parsed.data as PaymentPayload;
  if (!validateExactEvmPayload(payload.payload)) {
    throw malformed('not_exact_evm_payload', 'The payload must hold a hex signature and an EIP-3009 authorization whose values are strings.', {
      fields: (validateExactEvmPayload.errors ?? []).map((e) => ({ path: `/payload${e.instancePath}`, message: e.message })),
    });
  }
  const inner = payload.payload as unknown as { signature: `0x${string}`; authorization: Eip3009Authorization };
  return { payload, signature: inner.signature, authorization: inner.authorization };
}
