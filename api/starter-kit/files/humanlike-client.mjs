#!/usr/bin/env node
// humanlike starter kit: pay for one scoring session over x402 with @x402/fetch.
//
//   npm install @x402/fetch @x402/evm viem
//   HUMANLIKE_URL=http://localhost:3000 HUMANLIKE_PRIVATE_KEY=0x<64 hex digits> node humanlike-client.mjs
//
// The private key stays in this process: it signs an EIP-3009 TransferWithAuthorization for the
// exact quoted amount of USDC (no gas needed). The service never sees the key.
// Optional: HUMANLIKE_PROFILE, HUMANLIKE_DELAY, HUMANLIKE_TIER (basic or deep), HUMANLIKE_TEXT.
// Against `npm start`'s development chain, also set HUMANLIKE_ASSET to the test USDC address it
// prints (the library pays only well-known USDC deployments unless an asset is allowed).
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

const baseUrl = (process.env.HUMANLIKE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const privateKey = process.env.HUMANLIKE_PRIVATE_KEY;
if (!privateKey || !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
  console.error('Set HUMANLIKE_PRIVATE_KEY to the 0x-prefixed private key of a wallet holding USDC on the service network.');
  process.exit(2);
}

const account = privateKeyToAccount(privateKey);
const network = process.env.HUMANLIKE_NETWORK ?? 'eip155:8453';
const devAsset = process.env.HUMANLIKE_ASSET;
// One scheme for every EVM network: the 402 challenge names the network, the asset and the amount.
// Spend controls refuse anything above 1 USD per payment (a basic session is 0.05 USDC).
const client = x402Client.fromConfig({
  schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(account) }],
  spendControls: {
    maxAmountPerPayment: '$1',
    ...(devAsset ? { allowedAssets: [{ network, asset: devAsset, maxAmountPerPayment: '1000000' }] } : {}),
  },
});
const fetchWithPayment = wrapFetchWithPayment(fetch, client);

const session = {
  // Must be the payment signer.
  wallet_address: account.address,
  proposed_text: process.env.HUMANLIKE_TEXT ?? 'Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?',
  response_delay_seconds: Number(process.env.HUMANLIKE_DELAY ?? 45),
  target_profile: process.env.HUMANLIKE_PROFILE ?? 'grief-support-peer',
  tier: process.env.HUMANLIKE_TIER ?? 'basic',
};

// The first answer is 402 with the price; the wrapper signs it and retries the same request once.
const response = await fetchWithPayment(`${baseUrl}/api/simulate`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body: JSON.stringify(session),
});
const result = await response.json();
if (!response.ok) {
  console.error(`humanlike answered ${response.status}: ${JSON.stringify(result.error ?? result)}`);
  process.exit(1);
}

const receiptHeader = response.headers.get('PAYMENT-RESPONSE');
const receipt = receiptHeader ? decodePaymentResponseHeader(receiptHeader) : undefined;
console.log(
  JSON.stringify(
    {
      result_id: result.result_id,
      eq_score: result.score.eq_score,
      passed: result.score.passed,
      suggested_prompt_addition: result.score.suggested_prompt_addition,
      improvement: result.improvement,
      paid: receipt ? { transaction: receipt.transaction, network: receipt.network } : null,
    },
    null,
    2,
  ),
);
