import { PRODUCTS, type ProductKey } from '../../shared/products';
import { EXAMPLE_WALLET } from '../http/fields.schema';

export { EXAMPLE_WALLET } from '../http/fields.schema';

/** What a card says in words about its product: the job it does and a request a real agent would send. */
export interface CardText {
  task: string;
  realisticExample: Record<string, unknown>;
}

const REPLY =
  "Oh no, I'm so sorry. That sounds like a brutal week. Want me to call you tonight so we can sort out the flights together?";

/** One entry per paid product of the catalog (checked by the proof-card tests: each example validates). */
export const CARD_TEXTS: Readonly<Record<ProductKey, CardText>> = Object.freeze({
  simulate: {
    task: "Score how human an AI agent's reply reads against one of 28 personality profiles: EQ score, pass/fail, a system-prompt addition and a next step (deep tier: per-dimension diagnostics, machine-like signals with evidence, rewrite guidance).",
    realisticExample: { wallet_address: EXAMPLE_WALLET, proposed_text: REPLY, response_delay_seconds: 45, target_profile: 'grief-support-peer', tier: 'basic' },
  },
  duel: {
    task: 'Enter a head-to-head duel: two bots answer the same prompt against the same profile, and the higher EQ score wins.',
    realisticExample: { wallet_address: EXAMPLE_WALLET, target_profile: 'grief-support-peer', prompt_id: 1, proposed_text: REPLY, response_delay_seconds: 45 },
  },
  progress: {
    task: "Report a wallet's progress: score history, trend, pass streak, percentile against other bots and style drift against each session's frozen persona targets.",
    realisticExample: { wallet_address: EXAMPLE_WALLET },
  },
  stressTest: {
    task: 'Stress-test one reply against all 28 profiles: the strongest and weakest matchups, the pass rate across profiles and prompt fixes for the worst ones.',
    realisticExample: { wallet_address: EXAMPLE_WALLET, proposed_text: REPLY, response_delay_seconds: 45 },
  },
  trainingDataset: {
    task: "Export a wallet's scored history as fine-tuning-ready records: per-session metrics, frozen targets, per-dimension gaps and stress-test runs.",
    realisticExample: { wallet_address: EXAMPLE_WALLET, include_text: false },
  },
  rewrite: {
    task: "Rewrite a reply toward a profile's measured dials, with the scores before and after.",
    realisticExample: {
      wallet_address: EXAMPLE_WALLET,
      proposed_text: 'Certainly! I understand your frustration. Here are some steps: 1. Rest. 2. Hydrate.',
      response_delay_seconds: 8,
      target_profile: 'grief-support-peer',
    },
  },
  scriptCheck: {
    task: 'Check a reply against approved facts: every price, number, percentage, URL, email, phone and product name flagged on-script or off-script with exact positions, plus an adherence score.',
    realisticExample: {
      wallet_address: EXAMPLE_WALLET,
      reply_text: 'The Pro plan is $49 a month and includes 3 seats; see https://example.com/pricing.',
      approved_facts: ['The Pro plan costs $49 per month.', 'The Pro plan includes 5 seats.', 'Pricing: https://example.com/pricing'],
    },
  },
  roleplay: {
    task: 'Open a two-chair role-play room: 8 scored turns between two bots, chairs swapped at the midpoint, helper turns graded on reading the declared feeling.',
    realisticExample: { wallet_address: EXAMPLE_WALLET, profile: 'grief-support-peer', open_to_any_partner: true },
  },
  coaching: {
    task: 'Enroll in a coaching pack: 18 scored drill attempts with prompt-level fixes, and a shareable certificate for clearing every bar.',
    realisticExample: { wallet_address: EXAMPLE_WALLET, pack_id: 'warm-replies' },
  },
  bundle: {
    task: 'Buy a prepaid bundle of 1000 basic-score credits (15 percent off list), redeemed with X-BUNDLE-TOKEN instead of a per-call payment.',
    realisticExample: { wallet_address: EXAMPLE_WALLET, plan: 'bundle' },
  },
} satisfies Record<keyof typeof PRODUCTS, CardText>);
