// Paid requests for `npm run bench:http`: fresh x402 v2 authorizations (EIP-3009, real signatures
// by the development chain's funded accounts), all signed before the measured runs so that signing
// costs the bench client nothing while it measures.
import { randomBytes } from 'node:crypto';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress, recoverTypedDataAddress } from 'viem';
import type { Facilitator } from '../../shared/payments/facilitator-client';
import { isWalletSignature } from '../../shared/payments/wallet-signature';
import { privateKeyToAccount } from 'viem/accounts';
import { devAccounts } from '../../facilitator/dev-accounts';
import { transferWithAuthorizationTypedData } from '../../shared/payments/eip3009';
import { median } from './stats';

/** What the service's 402 offers for a basic session on the development chain. */
export interface PaidOffer {
  resourceUrl: string;
  requirement: PaymentRequirements;
}

/** One paid request: its PAYMENT-SIGNATURE and its body (wallet_address is the signer). */
export interface PaidRequest {
  header: string;
  body: string;
  /** The header's payment payload, for calling the facilitator directly. */
  payload: PaymentPayload;
}

/**
 * Signs `count` authorizations for the offer, round-robin over the funded development payers
 * (accounts 2..9), each with a fresh random nonce, each paired with one of the bodies.
 * @param offer - the requirement and resource URL of the 402
 * @param count - how many
 * @param bodyFor - the scoring request of request i, without wallet_address
 * @returns the requests, in order
 */
export async function signPaidRequests(offer: PaidOffer, count: number, bodyFor: (i: number) => Record<string, unknown>): Promise<PaidRequest[]> {
  const payers = devAccounts()
    .slice(2)
    .map((a) => privateKeyToAccount(a.privateKey));
  const { requirement } = offer;
  const extra = requirement.extra as { name: string; version: string };
  const domain = { name: extra.name, version: extra.version, chainId: Number(requirement.network.split(':')[1]), asset: requirement.asset };
  const now = Math.floor(Date.now() / 1000);
  const out: PaidRequest[] = [];
  for (let i = 0; i < count; i++) {
    const account = payers[i % payers.length];
    const nonce = `0x${randomBytes(32).toString('hex')}` as const;
    const authorization = {
      from: account.address,
      to: getAddress(requirement.payTo),
      value: requirement.amount,
      validAfter: String(now - 600),
      validBefore: String(now + requirement.maxTimeoutSeconds),
      nonce,
    };
    const signature = await account.signTypedData(transferWithAuthorizationTypedData(domain, authorization));
    const payload = { x402Version: 2, resource: { url: offer.resourceUrl }, accepted: requirement, payload: { signature, authorization } } as PaymentPayload;
    out.push({ header: encodePaymentSignatureHeader(payload), body: JSON.stringify({ ...bodyFor(i), wallet_address: account.address }), payload });
  }
  return out;
}

/** What the paid path's unavoidable curve work costs on this machine (medians, ms). */
export interface CurveCosts {
  /** One EIP-712 TransferWithAuthorization signature recovery (viem over @noble/curves), as the facilitator's @x402/evm does it. */
  recoverMs: number;
  /** The web's own check of the same signature (`isWalletSignature`: libsecp256k1 recovery). */
  webCheckMs: number;
  /** Signing one EIP-1559 transaction (the facilitator's settlement). */
  signTransactionMs: number;
}

/**
 * Measures the secp256k1 work a paid call cannot avoid, with the libraries the service and the
 * facilitator use: @x402/evm recovers the signer in /verify and again in /settle, and the
 * facilitator signs the settlement transaction; that work is serial on one request's path.
 * @param rounds - timed repetitions (after as many warm-up rounds)
 * @returns medians in ms
 */
export async function measureCurveCosts(rounds = 200): Promise<CurveCosts> {
  const [payer, facilitator] = devAccounts()
    .slice(1, 3)
    .map((a) => privateKeyToAccount(a.privateKey));
  const domain = { name: 'USD Coin', version: '2', chainId: 8453, asset: getAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913') };
  const authorization = {
    from: payer.address,
    to: facilitator.address,
    value: '50000',
    validAfter: '0',
    validBefore: '9999999999',
    nonce: `0x${'42'.repeat(32)}` as const,
  };
  const typedData = transferWithAuthorizationTypedData(domain, authorization);
  const signature = await payer.signTypedData(typedData);
  const tx = { chainId: 8453, type: 'eip1559', to: domain.asset, data: '0x', nonce: 1, gas: 100_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n } as const;
  const medianMs = async (work: () => Promise<unknown>) => {
    for (let i = 0; i < rounds; i++) await work();
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      await work();
      times.push(performance.now() - t);
    }
    return median(times);
  };
  return {
    recoverMs: await medianMs(() => recoverTypedDataAddress({ ...typedData, signature })),
    webCheckMs: await medianMs(() => isWalletSignature(payer.address, { typedData }, signature)),
    signTransactionMs: await medianMs(() => facilitator.signTransaction(tx)),
  };
}

/**
 * This process's CPU per facilitator call made through the service's own client: the HTTP client
 * side of /verify and /settle, which runs in the service's processes (the facilitator's own CPU,
 * in its process, is not counted). Measured with /verify, which does not consume the
 * authorization, so one signed payment serves every call.
 * @param facilitator - the client, built as the service builds it
 * @param request - a payment signed for the facilitator's chain
 * @param calls - timed sequential calls (after as many warm-up calls: the client takes hundreds to settle)
 * @returns ms of CPU (user + system) per call
 */
export async function measureFacilitatorClientMs(facilitator: Facilitator, request: PaidRequest, calls = 400): Promise<number> {
  const verify = async () => {
    const answer = await facilitator.verify(request.payload, request.payload.accepted);
    if (!answer.isValid) throw new Error(`the facilitator refused the bench's payment: ${answer.invalidReason ?? ''} ${answer.invalidMessage ?? ''}`);
  };
  for (let i = 0; i < calls; i++) await verify();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await verify();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}

/**
 * The wallets {@link signPaidRequests} signs with, in its round-robin order.
 * @returns their addresses
 */
export function paidRequestPayers(): string[] {
  return devAccounts()
    .slice(2)
    .map((a) => privateKeyToAccount(a.privateKey).address);
}
