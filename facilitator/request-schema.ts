import type { ExactEIP3009Payload } from '@x402/evm';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import Ajv, { type ErrorObject } from 'ajv';
import type { FieldProblem } from '../shared/errors';

const address = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
// A uint256 in decimal without leading zeros (78 digits is enough for 2^256 - 1; the contract
// call rejects anything larger).
const uintString = { type: 'string', pattern: '^(0|[1-9][0-9]{0,77})$' };
const bytes32 = { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' };
// ECDSA signatures are 65 bytes; smart-wallet (ERC-1271 / ERC-6492) signatures are longer.
const signature = { type: 'string', pattern: '^0x([0-9a-fA-F]{2})+$', maxLength: 16_386 };

const requirements = {
  type: 'object',
  required: ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'],
  properties: {
    scheme: { type: 'string', minLength: 1, maxLength: 64 },
    network: { type: 'string', pattern: '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$' },
    amount: uintString,
    asset: address,
    payTo: address,
    maxTimeoutSeconds: { type: 'integer', minimum: 0 },
    extra: { type: ['object', 'null'] },
  },
};

/**
 * JSON schema of a `/verify` or `/settle` body: `{x402Version: 2, paymentPayload,
 * paymentRequirements}` with an `exact` EIP-3009 payload (every authorization value a string, as
 * the x402 spec requires). Permit2 payloads are not served.
 */
export const facilitatorRequestSchema = {
  type: 'object',
  required: ['x402Version', 'paymentPayload', 'paymentRequirements'],
  properties: {
    x402Version: { const: 2 },
    paymentPayload: {
      type: 'object',
      required: ['x402Version', 'accepted', 'payload'],
      properties: {
        x402Version: { const: 2 },
        resource: { type: 'object' },
        accepted: requirements,
        payload: {
          type: 'object',
          required: ['signature', 'authorization'],
          properties: {
            signature,
            authorization: {
              type: 'object',
              required: ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'],
              properties: { from: address, to: address, value: uintString, validAfter: uintString, validBefore: uintString, nonce: bytes32 },
            },
          },
        },
        extensions: { type: ['object', 'null'] },
      },
    },
    paymentRequirements: requirements,
  },
} as const;

/** A `/verify` or `/settle` body that passed {@link facilitatorRequestSchema}. */
export interface FacilitatorRequest {
  x402Version: 2;
  paymentPayload: PaymentPayload & { payload: Required<ExactEIP3009Payload> };
  paymentRequirements: PaymentRequirements;
}

// No coercion: a number where the spec wants a decimal string is an error, not a guess.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile<FacilitatorRequest>(facilitatorRequestSchema);

/**
 * Checks a parsed body against {@link facilitatorRequestSchema}.
 * @param body - the parsed JSON body
 * @returns the typed request, or every failing field
 */
export function parseFacilitatorRequest(body: unknown): { ok: true; request: FacilitatorRequest } | { ok: false; fields: FieldProblem[] } {
  if (validate(body)) return { ok: true, request: body };
  return { ok: false, fields: toFieldProblems(validate.errors) };
}

function toFieldProblems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const seen = new Set<string>();
  const out: FieldProblem[] = [];
  for (const e of errors ?? []) {
    const missing = e.keyword === 'required' ? `/${String(e.params.missingProperty)}` : '';
    const path = `${e.instancePath}${missing}`;
    const message =
      e.keyword === 'required' ? 'is required' : e.keyword === 'const' ? `must be ${JSON.stringify(e.params.allowedValue)}` : (e.message ?? 'is invalid');
    const key = `${path}\u0000${e.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, rule: e.keyword, message });
  }
  return out;
}
