import { randomBytes } from 'node:crypto';
import type { PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { createPublicClient, erc20Abi, http, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { LocalFacilitator } from '../../../facilitator';

/** The price the tests pay: $0.01 in USDC units. */
export const PRICE = '10000';

/** An EIP-3009 authorization as x402 carries it: every value a string. */
export interface Authorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

/** A `/verify` or `/settle` request body. */
export interface FacilitatorBody {
  x402Version: 2;
  paymentPayload: {
    x402Version: 2;
    resource: { url: string };
    accepted: PaymentRequirements;
    payload: { signature: Hex; authorization: Authorization };
  };
  paymentRequirements: PaymentRequirements;
}

/**
 * The requirements a resource server using this facilitator would offer.
 * @param f - the running facilitator
 * @param amount - price in USDC units
 * @returns exact/EVM requirements paying the treasury
 */
export function requirementsFor(f: LocalFacilitator, amount = PRICE): PaymentRequirements {
  return {
    scheme: 'exact',
    network: f.network,
    amount,
    asset: f.asset,
    payTo: f.treasury,
    maxTimeoutSeconds: 60,
    extra: { name: f.assetName, version: f.assetVersion },
  };
}

/** What to change from a well-formed payment. */
export interface PaymentOverrides {
  /** Requirements offered (default {@link requirementsFor}). */
  requirements?: PaymentRequirements;
  /** Authorized value (default the requirements' amount). */
  value?: string;
  validAfter?: number;
  validBefore?: number;
  /** Who signs, when not the payer whose key is given (a forged signature). */
  signerKey?: Hex;
}

/**
 * Signs a real EIP-3009 TransferWithAuthorization with viem, as an x402 client does (nonce = 32
 * random bytes, validAfter = now - 600 s, validBefore = now + maxTimeoutSeconds), and wraps it in
 * an x402 v2 facilitator request.
 * @param f - the running facilitator (token address, treasury, chain id)
 * @param payerKey - private key of the payer (`from`)
 * @param overrides - fields to change
 * @returns the request body
 */
export async function signPayment(f: LocalFacilitator, payerKey: Hex, overrides: PaymentOverrides = {}): Promise<FacilitatorBody> {
  const requirements = overrides.requirements ?? requirementsFor(f);
  const payer = privateKeyToAccount(payerKey);
  const signer = overrides.signerKey ? privateKeyToAccount(overrides.signerKey) : payer;
  const now = Math.floor(Date.now() / 1000);
  const authorization: Authorization = {
    from: payer.address,
    to: requirements.payTo as Address,
    value: overrides.value ?? requirements.amount,
    validAfter: String(overrides.validAfter ?? now - 600),
    validBefore: String(overrides.validBefore ?? now + requirements.maxTimeoutSeconds),
    nonce: toHex(randomBytes(32)),
  };
  const signature = await signer.signTypedData({
    domain: { name: String(requirements.extra.name), version: String(requirements.extra.version), chainId: f.chainId, verifyingContract: f.asset },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  return {
    x402Version: 2,
    paymentPayload: { x402Version: 2, resource: { url: 'http://humanlike.test/api/score' }, accepted: requirements, payload: { signature, authorization } },
    paymentRequirements: requirements,
  };
}

/**
 * POSTs JSON (or a raw string) to the facilitator.
 * @param f - the running facilitator
 * @param path - `/verify`, `/settle`, `/rpc`
 * @param body - an object (sent as JSON) or a raw string
 * @param contentType - defaults to application/json
 * @returns status and parsed JSON body
 */
export async function post(f: LocalFacilitator, path: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${f.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * Reads USDC balances over the facilitator's `/rpc` passthrough.
 * @param f - the running facilitator
 * @returns a balance reader
 */
export function usdcBalances(f: LocalFacilitator): (address: Address) => Promise<bigint> {
  const client = createPublicClient({ transport: http(f.rpcUrl) });
  return (address) => client.readContract({ address: f.asset, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}
