// Paid requests for `npm run bench:http`: fresh x402 v2 authorizations (EIP-3009, real signatures
// by the development chain's funded accounts), all signed before the measured runs so that signing
// costs the bench client nothing while it measures.
import { randomBytes } from 'node:crypto';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devAccounts } from '../../facilitator/dev-accounts';
import { transferWithAuthorizationTypedData } from '../../shared/payments/eip3009';

/** What the service's 402 offers for a basic session on the development chain. */
export interface PaidOffer {
  resourceUrl: string;
  requirement: PaymentRequirements;
}

/** One paid request: its PAYMENT-SIGNATURE and its body (wallet_address is the signer). */
export interface PaidRequest {
  header: string;
  body: string;
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
    out.push({ header: encodePaymentSignatureHeader(payload), body: JSON.stringify({ ...bodyFor(i), wallet_address: account.address }) });
  }
  return out;
}
