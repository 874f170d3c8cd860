import type { PaymentRequirements } from '@x402/core/types';
import { getAddress, isAddressEqual } from 'viem';
import { transferWithAuthorizationTypedData } from '../../../shared/payments/eip3009';
import { isWalletSignature } from '../../../shared/payments/wallet-signature';
import { resourceKeyOf } from '../payment-exchange';
import type { Refusal } from '../refusal';
import type { ExactEvmPayment } from './decode-payment-signature';

/** The payment matches the requirement and is signed by the wallet the body names. */
export interface BoundPayment {
  ok: true;
  /** Checksummed signer. */
  payer: `0x${string}`;
}

// Reasons are the `@x402/evm` codes where one exists.
function refuse(reason: string, message: string): Refusal {
  return { ok: false, reason, message };
}

function chainIdOf(network: string): number | undefined {
  const match = /^eip155:([0-9]{1,12})$/.exec(network);
  return match ? Number(match[1]) : undefined;
}


/**
 * Checks the terms, without cryptography: the accepted requirement is the one offered (scheme,
 * network, asset, payTo, exact amount), the authorization pays exactly that to our treasury, and
 * its `from` is the body's `wallet_address`. {@link checkPaymentSignature} then proves `from` signed it.
 * @param payment - the decoded payment
 * @param requirement - the requirement this request offers
 * @param walletAddress - the body's `wallet_address`
 * @returns the payer, or the refusal
 */
export function checkPaymentTerms(payment: ExactEvmPayment, requirement: PaymentRequirements, walletAddress: string): BoundPayment | Refusal {
  const accepted = payment.payload.accepted;
  const auth = payment.authorization;
  if (accepted.scheme !== 'exact' || requirement.scheme !== 'exact') return refuse('invalid_exact_evm_scheme', 'Only the exact scheme is accepted.');
  if (accepted.network !== requirement.network) {
    return refuse('invalid_exact_evm_network_mismatch', `The payment is for ${accepted.network}; this resource is paid on ${requirement.network}.`);
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(accepted.asset) || !isAddressEqual(accepted.asset as `0x${string}`, requirement.asset as `0x${string}`)) {
    return refuse('invalid_exact_evm_asset_mismatch', `The payment is in another asset; this resource is paid in ${requirement.asset}.`);
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(accepted.payTo) || !isAddressEqual(accepted.payTo as `0x${string}`, requirement.payTo as `0x${string}`)) {
    return refuse('invalid_exact_evm_recipient_mismatch', 'The accepted requirement pays another address than this resource offers.');
  }
  if (!isAddressEqual(auth.to, requirement.payTo as `0x${string}`)) {
    return refuse('invalid_exact_evm_recipient_mismatch', 'The authorization pays another address than the treasury.');
  }
  if (accepted.amount !== requirement.amount || auth.value !== requirement.amount) {
    return refuse('invalid_exact_evm_authorization_value', `The authorization must transfer exactly ${requirement.amount} atomic units.`);
  }
  if (!/^0x[0-9a-fA-F]{40}$/.test(walletAddress) || !isAddressEqual(auth.from, walletAddress as `0x${string}`)) {
    return refuse('wallet_address_mismatch', 'wallet_address must be the address that signed the payment.');
  }
  return { ok: true, payer: getAddress(auth.from) };
}

/**
 * Proves the authorization was signed by its `from`: the EIP-712 signature over the token's domain
 * (name and version from the requirement's `extra`, the network's chain id, the token) is `from`'s
 * key's, or, with an EVM JSON-RPC endpoint, one the smart wallet at `from` accepts (ERC-1271).
 * This is our own check, whatever the facilitator says; on chain the token checks it once more.
 * @param payment - the decoded payment
 * @param requirement - the requirement this request offers
 * @param evmRpcUrl - read-only JSON-RPC of the payment's chain; unset accepts keys' signatures only
 * @returns undefined when it holds, or the refusal
 * @throws UnavailableError (503 evm_rpc_unavailable) when a smart wallet's signature needs the chain and it cannot be read
 */
export async function checkPaymentSignature(payment: ExactEvmPayment, requirement: PaymentRequirements, evmRpcUrl?: string): Promise<Refusal | undefined> {
  const extra = requirement.extra as { name?: string; version?: string } | undefined;
  const chainId = chainIdOf(requirement.network);
  if (!extra?.name || !extra.version || chainId === undefined) {
    return refuse('invalid_exact_evm_missing_eip712_domain', 'The requirement lacks its EIP-712 domain.');
  }
  const auth = payment.authorization;
  const typedData = transferWithAuthorizationTypedData({ name: extra.name, version: extra.version, chainId, asset: requirement.asset }, auth);
  if (!(await isWalletSignature(auth.from, { typedData }, payment.signature, evmRpcUrl))) {
    return refuse('invalid_exact_evm_signature', "The signature was not made by the authorization's `from` address.");
  }
  return undefined;
}

// Slack on top of maxTimeoutSeconds for clock skew between client and server.
const VALIDITY_SLACK_SECONDS = 60;
// The facilitator needs the authorization valid for about a block after it submits it.
const BLOCK_TIME_BUFFER_SECONDS = 6;

/**
 * Checks what does change with time and place, for a new authorization: it is valid now, and for
 * no longer than the requirement allows, and it was made for this resource.
 * @param payment - the decoded payment
 * @param requirement - the requirement this request offers
 * @param resourceKey - the key of this call's resource: the request path over HTTP, `mcp://tool/<name>` over MCP
 * @param nowSeconds - the current Unix time
 * @returns undefined when it passes, or the refusal
 */
export function checkPaymentWindow(
  payment: ExactEvmPayment,
  requirement: PaymentRequirements,
  resourceKey: string,
  nowSeconds: number,
): Refusal | undefined {
  const auth = payment.authorization;
  const now = BigInt(nowSeconds);
  if (BigInt(auth.validBefore) < now + BigInt(BLOCK_TIME_BUFFER_SECONDS)) {
    return refuse('invalid_exact_evm_payload_authorization_valid_before', 'The authorization has expired (or expires within seconds).');
  }
  if (BigInt(auth.validAfter) > now) {
    return refuse('invalid_exact_evm_payload_authorization_valid_after', 'The authorization is not valid yet.');
  }
  if (BigInt(auth.validBefore) - now > BigInt(requirement.maxTimeoutSeconds + VALIDITY_SLACK_SECONDS)) {
    return refuse('authorization_validity_too_long', `The authorization may stay valid at most ${requirement.maxTimeoutSeconds} seconds.`);
  }
  const url = payment.payload.resource?.url;
  if (!url) return refuse('resource_missing', 'The payment must name the resource it pays for (resource.url).');
  const key = resourceKeyOf(url);
  if (key === undefined) return refuse('resource_mismatch', 'resource.url is not an absolute URL.');
  if (key !== resourceKey) return refuse('resource_mismatch', `The payment was made for ${key}, not for ${resourceKey}.`);
  return undefined;
}
