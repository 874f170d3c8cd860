/** Decimals of USDC's atomic unit. */
const USDC_DECIMALS = 6;

/**
 * A USDC amount in atomic units as people read money: every significant decimal, at least two
 * (50000 -> "0.05 USDC", 75000 -> "0.075 USDC", 42500000 -> "42.50 USDC"). Exact for any size: the
 * units are never turned into a float.
 * @param units - atomic units (6 decimals), as a number, bigint or digit string
 * @returns the amount with its currency
 */
export function formatUsdc(units: number | bigint | string): string {
  const digits = BigInt(units).toString().padStart(USDC_DECIMALS + 1, '0');
  const whole = digits.slice(0, -USDC_DECIMALS);
  const fraction = digits.slice(-USDC_DECIMALS).replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction} USDC`;
}
