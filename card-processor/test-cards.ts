/** What a card number does when charged, after Stripe's documented test cards. */
export type CardOutcome = { ok: true; brand: string } | { ok: false; code: 'card_declined' | 'incorrect_number'; declineCode?: string; message: string };

// Stripe's documented test numbers (https://docs.stripe.com/testing): a few succeed, a few decline.
const DECLINES: Record<string, { declineCode: string; message: string }> = {
  '4000000000000002': { declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000009987': { declineCode: 'lost_card', message: 'Your card was declined.' },
};

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What charging a card number does on the local processor: Stripe's test cards decline as Stripe
 * documents; any other number that passes the Luhn check succeeds (nothing real is ever charged).
 * @param number - the card number as typed (spaces allowed)
 * @returns the outcome
 */
export function chargeOutcome(number: string): CardOutcome {
  const digits = number.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(digits) || !luhn(digits)) return { ok: false, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  const decline = DECLINES[digits];
  if (decline) return { ok: false, code: 'card_declined', ...decline };
  return { ok: true, brand: digits.startsWith('4') ? 'visa' : digits.startsWith('5') ? 'mastercard' : 'unknown' };
}

/**
 * Whether an expiry typed as `MM / YY` (or `MM/YYYY`) is a month not yet past.
 * @param value - the expiry as typed
 * @param now - the clock
 * @returns the month and year, or undefined when invalid or past
 */
export function parseExpiry(value: string, now = new Date()): { month: number; year: number } | undefined {
  const match = /^\s*(0[1-9]|1[0-2])\s*\/\s*([0-9]{2}|[0-9]{4})\s*$/.exec(value);
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return year * 12 + (month - 1) >= current ? { month, year } : undefined;
}
