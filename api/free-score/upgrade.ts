import type { AppConfig } from '../../shared/config';
import { livePrice, type PriceSettings } from '../../shared/operators/network-config';
import { PRODUCT_TERMS, PRODUCTS } from '../../shared/products';

/**
 * The machine-readable upgrade block of a 429 `free_cap_reached`: where the paid flow is, what it
 * costs and how to pay (x402). The live 402 quote of `GET /api/simulate` is authoritative.
 * @param payments - the `payments` section of the config
 * @param network - the runtime network configuration (the live base simulation fee)
 * @returns the block, sent as the top-level `upgrade` member of the error body
 */
export function upgradeBlock(payments: AppConfig['payments'], network: PriceSettings) {
  const basic = livePrice(PRODUCTS.simulate, 'basic', network);
  return {
    reason: 'free_cap_reached',
    paid_flow: {
      method: 'POST',
      endpoint: '/api/simulate',
      tier: 'basic',
      price_usdc_units: basic.usdcUnits,
      price_lamports: basic.lamports,
      usdc_decimals: PRODUCT_TERMS.usdcDecimals,
      protocol: 'x402',
      x402_version: 2,
      payment_header: 'PAYMENT-SIGNATURE',
      legacy_payment_header: 'X-PAYMENT',
      network: payments.network,
      asset: payments.usdcAsset,
      pay_to: payments.treasury.evm ?? null,
      quote: { method: 'GET', endpoint: '/api/simulate' },
      required_fields: ['wallet_address', 'proposed_text', 'response_delay_seconds', 'target_profile'],
    },
    prepaid_bundle: { method: 'POST', endpoint: '/api/bundle', credits: PRODUCT_TERMS.bundleCredits },
    pricing: '/api/pricing',
  };
}
