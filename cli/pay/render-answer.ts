import { formatUsdc } from '../../shared/money';
import type { PaidSessionOutcome } from './pay-for-session';
import { PRODUCT_SUMMARIES, type AnswerBody } from './product-summaries';

/** What the rendering knows besides the outcome. */
export interface RenderOptions {
  /** The product paid for, by catalog id (simulate, duel, progress, ...). */
  product: string;
  /** Where `--out` wrote the answer, if it did. */
  outFile?: string;
}

function trailer(body: AnswerBody, replayed: boolean): string[] {
  // A duel's result is its bot's leg (a scored session of its own).
  const resultId: unknown = body.result_id ?? body.leg?.result_id;
  if (typeof resultId !== 'string') return [];
  const referral = typeof body.referral_code === 'string' ? `; your referral code: ${body.referral_code}` : '';
  return [`Result id: ${resultId}${referral}${replayed ? ' (replayed delivery)' : ''}`];
}

function summaryOf(outcome: PaidSessionOutcome, options: RenderOptions): string[] {
  const body = outcome.body as AnswerBody | string | null;
  if (outcome.status !== 200) return [`HTTP ${outcome.status}: ${JSON.stringify(body)}`];
  const summary = PRODUCT_SUMMARIES[options.product];
  if (summary && body !== null && (typeof body === 'object' || options.product === 'training-dataset')) {
    try {
      const lines = summary(body as AnswerBody, { outFile: options.outFile });
      return [...lines, ...(typeof body === 'object' ? trailer(body, outcome.replayed) : [])];
    } catch {
      // An answer of a shape this client does not know: shown as it came, below.
    }
  }
  if (typeof body === 'string') return [body.replace(/\n$/, '')];
  return [JSON.stringify(body, null, 2)];
}

/**
 * Renders the answer of a paid call for a person: the product's summary (see
 * product-summaries.ts), the result id, then what was signed and the decoded receipt. A refusal
 * is its status and body; an answer this client cannot read is shown as it came.
 * @param outcome - the paid call's final answer
 * @param options - the product paid for, and where `--out` wrote the answer
 * @returns the text to print, ending in a newline
 */
export function renderPaidAnswer(outcome: PaidSessionOutcome, options: RenderOptions): string {
  const lines = summaryOf(outcome, options);
  // The service prices in USDC: the amount as money first, the atomic units as signed after it.
  if (outcome.paid) lines.push(`Signed: ${formatUsdc(outcome.paid.amount)} (${outcome.paid.amount} units of ${outcome.paid.asset} on ${outcome.paid.network}) to ${outcome.paid.payTo}`);
  if (outcome.receipt) lines.push(`Receipt: ${JSON.stringify(outcome.receipt)}`);
  return `${lines.join('\n')}\n`;
}
