import { createHash } from 'node:crypto';
import { COMPANY_PLAN } from '../../shared/products';

/** The version of the terms below; a change of their text or figures makes a new version. */
export const COMPANY_TERMS_VERSION = 'aei-company-terms-1';

/** The company program's terms: what a company gets for the price, and what is done with its data. */
export interface CompanyTerms {
  version: string;
  title: string;
  plan: string;
  price: { amount_cents: number; currency: string; display: string };
  period: { days: number; starts: string };
  allowances: { guide_calls: number; embedded_check_credits: number; pilot_sponsorship_slots: number };
  data_handling: string[];
  conditions: string[];
}

function buildTerms(): CompanyTerms {
  const plan = COMPANY_PLAN;
  return {
    version: COMPANY_TERMS_VERSION,
    title: 'humanlike company program',
    plan: plan.id,
    price: { amount_cents: plan.amountCents, currency: plan.currency, display: `$${plan.priceUsd}` },
    period: { days: plan.periodDays, starts: 'when the company claims its token after the payment settled' },
    allowances: { guide_calls: plan.guideCalls, embedded_check_credits: plan.credits, pilot_sponsorship_slots: plan.sponsorshipSlots },
    data_handling: [
      'POST /api/aei/guide keeps no text: the draft and its situation are scored in memory and discarded; neither they nor a plain hash of them is written to the database, to Redis or to a log.',
      'An Idempotency-Key replay keeps only a keyed fingerprint (HMAC) of the inputs and the answer, which holds codes and offsets but no text, for 24 hours.',
      'Outcome reports hold the figures the company sends (periods, counts, rates) and no conversation text; evidence shown to operators combines at least five companies.',
      'The company token is shown once and stored only as its SHA-256; whoever holds it acts as the company.',
    ],
    conditions: [
      'One card payment buys one period; nothing renews on its own.',
      'The embedded-check credits are basic credits on the bundle token issued with the checkout; they remain after the period ends.',
      'Guide calls and sponsorship slots are counted per period and end with it.',
      'The token is inactive until the payment settles and the company claims it with this version and hash.',
    ],
  };
}

/** The current terms, frozen. */
export const COMPANY_TERMS: Readonly<CompanyTerms> = Object.freeze(buildTerms());

/**
 * The content hash of terms: SHA-256 (hex) of their JSON with the keys as written above, so a
 * claim names exactly the text and figures it accepted.
 * @param terms - the terms
 * @returns 64 lowercase hex characters
 */
export function termsHash(terms: CompanyTerms): string {
  return createHash('sha256').update(JSON.stringify(terms)).digest('hex');
}

/** The content hash of the current terms. */
export const COMPANY_TERMS_HASH = termsHash(COMPANY_TERMS);
