import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, SettleResponse, VerifyResponse } from '@x402/core/types';
import { verifyTypedDataSignature } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { getAddress, isAddressEqual, parseErc6492Signature, type Address } from 'viem';
import type { Logger } from '../shared/logger';
import { transferWithAuthorizationTypedData } from '../shared/payments/eip3009';
import type { FacilitatorSigner } from './evm-signer';
import { maskedLogger } from './masked-logger';
import type { FacilitatorRequest } from './request-schema';
import { findSettlementTransaction } from './settled-lookup';

/**
 * Settle failures after which the authorization may already be executed on chain, so the chain is
 * asked before answering: the nonce is used (a retry after a confirmed settlement), the
 * authorization expired meanwhile (a late retry), or our transaction reverted (another submitter
 * won the race).
 */
const MAYBE_SETTLED = new Set([
  'invalid_exact_evm_nonce_already_used',
  'invalid_exact_evm_payload_authorization_valid_before',
  'invalid_exact_evm_transaction_failed',
]);

/** The `/supported` answer (x402Facilitator's `getSupported()` shape). */
export type SupportedAnswer = ReturnType<x402Facilitator['getSupported']>;

/** The facilitator's x402 operations, independent of HTTP. */
export interface FacilitatorService {
  readonly network: Network;
  readonly signerAddress: Address;
  /** The `/supported` answer: one v2 `exact` kind on {@link network}, no extensions, the signer. */
  supported(): SupportedAnswer;
  /**
   * Whether requirements name a kind this facilitator serves.
   * @param request - a schema-valid request
   */
  serves(request: FacilitatorRequest): boolean;
  /**
   * Verifies a payment with the official `ExactEvmScheme` (signature, recipient, time window,
   * exact amount, asset code, then a simulated `transferWithAuthorization`).
   * @param request - a schema-valid request
   */
  verify(request: FacilitatorRequest): Promise<VerifyResponse>;
  /**
   * Settles a payment with the official `ExactEvmScheme`, idempotently: concurrent calls with the
   * same payload share one settlement, and a payload whose authorization was already executed on
   * chain answers success with that transaction's hash.
   * @param request - a schema-valid request
   */
  settle(request: FacilitatorRequest): Promise<SettleResponse>;
}

/** Options of {@link createFacilitatorService}. */
export interface FacilitatorServiceOptions {
  signer: FacilitatorSigner;
  /** CAIP-2 network served, e.g. `eip155:8453`. */
  network: Network;
  /** Blocks searched for an earlier settlement; undefined = from genesis (development chain only). */
  settledLookbackBlocks?: bigint;
  logger: Logger;
}

/**
 * Registers the official `ExactEvmScheme` for one network on an `x402Facilitator` (not
 * `registerExactEvmScheme`, which would also list v1 kinds for twenty other networks in
 * `/supported`) and adds idempotent settlement around it.
 *
 * What the official package does with a repeated settle: its `PendingSettlementStore` remembers a
 * transaction only while its receipt wait failed (`settlement_pending`), keyed by the signature,
 * so a retry waits for that same transaction instead of sending a second. Once a settlement is
 * confirmed the entry is deleted; a later retry verifies again, its transaction fails gas
 * estimation on the token's used nonce, and the package answers
 * `invalid_exact_evm_nonce_already_used`. Money never moves twice (the token burns the nonce),
 * but the caller sees a failure. This service turns that answer into the original success by
 * finding the executed authorization on chain ({@link findSettlementTransaction}), which also
 * works after a restart or on another replica.
 * @param options - signer, network, lookback, logger
 * @returns the service
 */
export function createFacilitatorService(options: FacilitatorServiceOptions): FacilitatorService {
  const { signer, network } = options;
  const logger = maskedLogger(options.logger);
  const chainId = Number(network.split(':')[1]);
  const facilitator = new x402Facilitator().register(network, new ExactEvmScheme(signer.signer));
  const inFlight = new Map<string, Promise<SettleResponse>>();

  // Answers success only for the very transfer this request asks for, signed by the payer.
  const reconcile = async (request: FacilitatorRequest, failed: SettleResponse): Promise<SettleResponse> => {
    const { paymentPayload, paymentRequirements: requirements } = request;
    const { authorization: auth, signature } = paymentPayload.payload;
    const name = requirements.extra?.name;
    const version = requirements.extra?.version;
    if (typeof name !== 'string' || typeof version !== 'string') return failed;
    if (!isAddressEqual(auth.to, getAddress(requirements.payTo)) || BigInt(auth.value) !== BigInt(requirements.amount)) return failed;
    const asset = getAddress(requirements.asset);
    const signed = await verifyTypedDataSignature(signer.signer, {
      address: auth.from,
      ...transferWithAuthorizationTypedData({ name, version, chainId, asset }, auth),
      signature: parseErc6492Signature(signature).signature,
    });
    if (!signed) return failed;
    const transaction = await findSettlementTransaction(
      signer.publicClient,
      asset,
      { from: auth.from, to: auth.to, value: BigInt(auth.value), nonce: auth.nonce },
      options.settledLookbackBlocks,
    );
    if (!transaction) return failed;
    logger.info({ payer: auth.from, transaction, failedReason: failed.errorReason }, 'settle answered with the earlier settlement');
    return { success: true, transaction, network: requirements.network, payer: auth.from };
  };

  return {
    network,
    signerAddress: signer.address,
    supported: () => facilitator.getSupported(),
    serves: (request) => request.paymentRequirements.scheme === 'exact' && request.paymentRequirements.network === network,
    verify: (request) => facilitator.verify(request.paymentPayload, request.paymentRequirements),
    settle(request) {
      const key = settlementKey(request);
      let settling = inFlight.get(key);
      if (!settling) {
        settling = (async () => {
          const result = await facilitator.settle(request.paymentPayload, request.paymentRequirements);
          if (result.success || !MAYBE_SETTLED.has(result.errorReason ?? '')) return result;
          try {
            return await reconcile(request, result);
          } catch (err) {
            // The lookup is a courtesy: when the chain cannot answer it, the package's own answer stands.
            logger.warn({ err, failedReason: result.errorReason }, 'earlier settlement lookup failed');
            return result;
          }
        })().finally(() => inFlight.delete(key));
        inFlight.set(key, settling);
      }
      return settling;
    },
  };
}

// Two requests share a settlement only when everything that reaches the chain is identical: a
// forged copy of a pending payload (same nonce, another signature or amount) settles on its own.
function settlementKey(request: FacilitatorRequest): string {
  const { authorization: a, signature } = request.paymentPayload.payload;
  const r = request.paymentRequirements;
  return [r.network, r.asset, r.payTo, r.amount, a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, signature]
    .map((part) => part.toLowerCase())
    .join('|');
}
