import { PRODUCTS } from '../../shared/products';
import { TX_HASH_SCHEMA, WALLET_ADDRESS_SCHEMA } from '../http/fields.schema';
import { planTerms, type PurchasePlan } from './bundle-plans';
import { RECOVERY_WINDOW_SECONDS } from './recovery';
import type { BodyOf } from '../http/ajv';

const bundle = planTerms('bundle');
const fleet = planTerms('fleet');

const PLAN_SCHEMA = {
  type: 'string',
  // The catalog types tier ids as plain strings; these are the bundle's tiers, typed.
  enum: Object.keys(PRODUCTS.bundle.tiers) as PurchasePlan[],
  default: PRODUCTS.bundle.defaultTier,
  description:
    `bundle: ${bundle.credits} basic credits for ${bundle.price.usdcUnits} USDC units (${bundle.price.lamports} lamports). ` +
    `fleet: ${fleet.credits} basic credits (the fleet card pack's terms) under one token for a fleet of agents of the paying wallet, ` +
    `for ${fleet.price.usdcUnits} USDC units (${fleet.price.lamports} lamports): the same per-credit rate.`,
} as const;

/** JSON schema of {@link BundleRequest}. */
export const bundleRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'The paying wallet (the payment signer), which owns the credits. Leave it out for a no-wallet quote.' },
    plan: PLAN_SCHEMA,
    referral_code: {
      type: 'string',
      maxLength: 32,
      default: '',
      description: "A referrer's code (HL-XXXXXXXX), on a new wallet's first paid purchase only. Checked before payment.",
    },
    tx_hash: TX_HASH_SCHEMA,
  },
} as const;

/** Body of `POST /api/bundle`. */
export type BundleRequest = BodyOf<typeof bundleRequestSchema>;

/** JSON schema of {@link RecoverRequest}. */
export const recoverRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bundle_id', 'wallet_address', 'timestamp', 'signature'],
  properties: {
    bundle_id: { type: 'string', format: 'uuid', description: 'The bundle (bundle_id of the purchase, or of a reward bundle).' },
    wallet_address: { ...WALLET_ADDRESS_SCHEMA, description: 'The wallet that owns the bundle.' },
    timestamp: {
      type: 'integer',
      minimum: 0,
      maximum: 99_999_999_999,
      description: `Unix seconds of the signed message; within ${RECOVERY_WINDOW_SECONDS} s of the server clock and later than any earlier recovery of this bundle.`,
    },
    signature: {
      type: 'string',
      // 65 bytes from a key; a smart wallet's may be longer (ERC-6492 wraps a deployment).
      pattern: '^(0x[0-9a-fA-F]{130,16384}|[1-9A-HJ-NP-Za-km-z]{64,90})$',
      description:
        "EVM: the EIP-191 personal_sign signature, 0x-hex (65 bytes for a key; a smart wallet's signature is checked on chain with ERC-1271/6492 when the server has an EVM_RPC_URL). Solana: the ed25519 signature of the UTF-8 message, base58.",
    },
  },
} as const;

/** Body of `POST /api/bundle/recover`. */
export type RecoverRequest = BodyOf<typeof recoverRequestSchema>;

/** Query of `GET /api/bundle` (the quote). */
export const bundleQuoteQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { plan: { ...PLAN_SCHEMA, description: 'Which plan to quote.' } },
} as const;
