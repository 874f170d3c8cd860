import { PassThrough, Readable } from 'node:stream';
import { presentScriptCheck } from '../../api/script-check/present-script-check';
import { presentFreeScore } from '../../api/free-score/free-score.tool';
import { scoreInputFrom } from '../../api/http/score-input';
import { presentRewrite, withText } from '../../api/rewrite/present-rewrite';
import { presentSession } from '../../api/simulate/present-session';
import { presentWeaknessMap } from '../../api/stress-test/present-weakness-map';
import { main as cliMain } from '../../cli/main';
import type { PaidSessionOutcome } from '../../cli/pay/pay-for-session';
import { renderPaidAnswer } from '../../cli/pay/render-answer';
import { loadConfig } from '../../shared/config';
import { PRODUCTS } from '../../shared/products';
import { rewriteText } from '../../shared/rewrite/rewrite';
import { checkScript } from '../../shared/script-check/check-script';
import { scoreText, scoreWeaknessMap } from '../../shared/scoring';
import { STRESS_TEST_WEAKEST } from '../../jobs';

/**
 * One example of the README: its input and the answer the current code gives for it, rendered as
 * the Markdown that stands between the example's markers.
 */
export interface ReadmeExample {
  /** The marker name: `<!-- example:ID -->` ... `<!-- /example:ID -->`. */
  id: string;
  /** The block's Markdown (command and answer), computed from the current engine and presenters. */
  render(): Promise<string>;
}

// What differs at each paid call (ids, codes, transactions, addresses of a fresh chain) is shown as a
// placeholder; everything else comes from the code that answers the call.
const RESULT_ID = '…';
const REFERRAL_CODE = 'HL-…';
const DEV_CHAIN = { asset: '0x5FbD…0aa3', network: 'eip155:8453' as const, payTo: '0x7099…79C8', payer: '0x3C44…93BC' };
const PAY = 'HUMANLIKE_PRIVATE_KEY=0x… npx humanlike pay --asset <the test USDC npm start printed>';

/** The reply most examples score: a short condolence with one hedge. */
const CONDOLENCE = 'Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?';

function fence(lang: string, text: string): string {
  return `\`\`\`${lang}\n${text.replace(/\n+$/, '')}\n\`\`\``;
}

/** Quotes a shell word the way a person would type it (single quotes, unless it needs none). */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** Runs the CLI in-process on the given arguments and returns what it printed. */
async function runCli(argv: string[]): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await cliMain(argv, { stdin: Readable.from([]), stdout, stderr, color: false }, {});
  if (code !== 0) throw new Error(`humanlike ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

/** A paid answer as `humanlike pay` prints it, with the per-call values as placeholders. */
function paidOutput(product: string, body: Record<string, unknown>, usdcUnits: number): string {
  const outcome: PaidSessionOutcome = {
    status: 200,
    body: { ...body, referral_code: REFERRAL_CODE },
    replayed: false,
    paid: { amount: String(usdcUnits), asset: DEV_CHAIN.asset, network: DEV_CHAIN.network, payTo: DEV_CHAIN.payTo },
    receipt: { success: true, transaction: '0x…', network: DEV_CHAIN.network, payer: DEV_CHAIN.payer } as PaidSessionOutcome['receipt'],
  };
  return renderPaidAnswer(outcome, { product });
}

const freeScoreBody = {
  data_consent: true,
  proposed_text: CONDOLENCE,
  response_delay_seconds: 45,
  target_profile: 'grief-support-peer',
} as const;

const scoreArgs = [
  'score',
  '--profile',
  'terse-senior-engineer',
  '--delay',
  '12',
  '--incoming',
  'The build fails on main, which env var is missing?',
  'DATABASE_URL. Set it in the CI secrets, then rerun the job.',
];

const deepSession = { proposed_text: CONDOLENCE, response_delay_seconds: 45, target_profile: 'grief-support-peer' } as const;

const stressBody = {
  proposed_text: 'Certainly! I understand how frustrating this must be. Please restart the router and let me know if the issue persists.',
  response_delay_seconds: 4,
} as const;

const rewriteBody = {
  proposed_text: 'Certainly! I completely understand how frustrating this must be. Please do not hesitate to restart the router, and I hope this helps!',
  response_delay_seconds: 30,
  target_profile: 'terse-senior-engineer',
} as const;

const scriptCheckBody = {
  reply_text: 'Acme Pro is $5 a month, 40% off. Call (415) 555-2671.',
  approved_facts: ['Acme Pro costs five dollars a month, 50% off.', 'Phone: +1 415 555 2671'],
};

/** Every generated example of the README, in the order they appear. */
/** The documents that hold generated examples, from the repository root; each example stands in one of them. */
export const EXAMPLE_FILES = ['README.md', 'docs/products.md'] as const;

export const README_EXAMPLES: readonly ReadmeExample[] = [
  {
    id: 'free-score',
    async render() {
      const score = presentFreeScore(scoreText(scoreInputFrom(freeScoreBody))) as Record<string, unknown>;
      // The per-dimension detail is long; the README names it and leaves it out.
      const { measures: _m, dimensions: _d, targets: _t, ...shown } = score;
      const free = loadConfig({}).freeTier;
      const answer = {
        score: shown,
        free_tier: { limit: free.scoreLimit, used: 1, remaining: free.scoreLimit - 1, wishlist_required_before_score: free.wishlistRequiredFrom, corpus: '…' },
      };
      const curl = `curl -X POST localhost:3000/api/score -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(freeScoreBody)}'`;
      return [
        fence('sh', curl),
        'Its answer (the first of your three free scores; `measures`, `dimensions` and `targets` left out here):',
        fence('json', JSON.stringify(answer, null, 2)),
      ].join('\n\n');
    },
  },
  {
    id: 'cli-score',
    async render() {
      const command = `npx humanlike ${scoreArgs.map(shellWord).join(' ')}`.replace(' --incoming', ' \\\n  --incoming').replace(/ '([^']*)'$/, " \\\n  '$1'");
      return [fence('sh', command), fence('text', await runCli(scoreArgs))].join('\n\n');
    },
  },
  {
    id: 'pay-simulate-deep',
    async render() {
      const command = `${PAY} \\\n  --profile ${deepSession.target_profile} --deep --delay ${deepSession.response_delay_seconds} \\\n  ${shellWord(CONDOLENCE)}`;
      const body = presentSession(scoreText(scoreInputFrom(deepSession, true)), { resultId: RESULT_ID, tier: 'deep', calibration: { requested: false, eligible: false } });
      return [fence('sh', command), fence('text', paidOutput(PRODUCTS.simulate.id, body, PRODUCTS.simulate.tiers.deep.price.usdcUnits))].join('\n\n');
    },
  },
  {
    id: 'pay-stress-test',
    async render() {
      const command = `${PAY} \\\n  --product stress-test --body ${shellWord(JSON.stringify(stressBody))}`;
      const map = scoreWeaknessMap(scoreInputFrom(stressBody), STRESS_TEST_WEAKEST);
      const { body } = presentWeaknessMap(map, RESULT_ID);
      return [fence('sh', command), fence('text', paidOutput(PRODUCTS.stressTest.id, body, PRODUCTS.stressTest.tiers.standard.price.usdcUnits))].join('\n\n');
    },
  },
  {
    id: 'pay-rewrite',
    async render() {
      const command = `${PAY} \\\n  --product rewrite --body ${shellWord(JSON.stringify(rewriteBody))}`;
      const rewrite = rewriteText({ text: rewriteBody.proposed_text, profile: rewriteBody.target_profile, delaySeconds: rewriteBody.response_delay_seconds });
      const stored = presentRewrite(rewrite, RESULT_ID);
      const delivered = { ...stored, ...withText(stored, rewriteBody.proposed_text) };
      return [fence('sh', command), fence('text', paidOutput(PRODUCTS.rewrite.id, delivered, PRODUCTS.rewrite.tiers.standard.price.usdcUnits))].join('\n\n');
    },
  },
  {
    id: 'pay-script-check',
    async render() {
      const command = `${PAY} \\\n  --product script-check --body ${shellWord(JSON.stringify(scriptCheckBody))}`;
      const body = presentScriptCheck(RESULT_ID, checkScript(scriptCheckBody));
      return [fence('sh', command), fence('text', paidOutput(PRODUCTS.scriptCheck.id, body, PRODUCTS.scriptCheck.tiers.standard.price.usdcUnits))].join('\n\n');
    },
  },
];
