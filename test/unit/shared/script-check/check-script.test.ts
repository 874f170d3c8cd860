import { expect } from 'chai';
import { checkScript, type ScriptCheckInput } from '../../../../shared/script-check/check-script';
import type { ClaimKind } from '../../../../shared/script-check/extract-claims';

/** One expected claim: its kind, its exact text, whether it is on script, and (optionally) its UTF-16 start. */
interface Expected {
  kind: ClaimKind;
  text: string;
  on: boolean;
  /** Where the claim starts; when omitted, the first occurrence of `text` in the reply. */
  at?: number;
}

interface Row {
  reply: string;
  facts?: string[];
  source?: string;
  claims: Expected[];
}

const ACME = ['Acme Pro Plan costs $5.00 per month.', 'Discount: 50 percent.', 'Phone +1 415 555 2671', 'Pricing: https://acme.io/pricing/', 'Email sales@acme.io'];

// Each row lists every claim the reply must yield, in order: nothing more, nothing less.
const TABLE: Row[] = [
  // prices: equal amounts written differently match; another amount or currency does not
  { reply: 'It costs $5.', facts: ACME, claims: [{ kind: 'price', text: '$5', on: true }] },
  { reply: 'It costs 5.00 USD a month.', facts: ACME, claims: [{ kind: 'price', text: '5.00 USD', on: true }] },
  { reply: 'It costs five dollars a month.', facts: ACME, claims: [{ kind: 'price', text: 'five dollars', on: true }] },
  { reply: 'Only US$ 5 today.', facts: ['5 dollars'], claims: [{ kind: 'price', text: 'US$ 5', on: true }] },
  { reply: 'It costs $7.', facts: ACME, claims: [{ kind: 'price', text: '$7', on: false }] },
  { reply: 'It costs €5.', facts: ['$5'], claims: [{ kind: 'price', text: '€5', on: false }] },
  { reply: 'Shipping is 50 cents.', facts: ['Shipping: $0.50'], claims: [{ kind: 'price', text: '50 cents', on: true }] },
  { reply: 'It is $1,299.99.', source: 'Price: 1299.99 USD', claims: [{ kind: 'price', text: '$1,299.99', on: true }] },
  { reply: 'EUR 20 a seat.', facts: ['20 euros per seat'], claims: [{ kind: 'price', text: 'EUR 20', on: true }] },
  { reply: 'We raised $2.5 million.', facts: ['$2,500,000 raised'], claims: [{ kind: 'price', text: '$2.5 million', on: true }] },
  { reply: 'It costs 5 dollars.', facts: ['It costs 5 euros.'], claims: [{ kind: 'price', text: '5 dollars', on: false }] },
  // percentages
  { reply: 'Save 50% now.', facts: ACME, claims: [{ kind: 'percentage', text: '50%', on: true }] },
  { reply: 'Save 50 percent now.', facts: ['50% off'], claims: [{ kind: 'percentage', text: '50 percent', on: true }] },
  { reply: 'Save fifty percent now.', facts: ['50% off'], claims: [{ kind: 'percentage', text: 'fifty percent', on: true }] },
  { reply: 'Save 40% now.', facts: ['50% off'], claims: [{ kind: 'percentage', text: '40%', on: false }] },
  { reply: 'A 12.5 per cent rate.', facts: ['Rate: 12.5%'], claims: [{ kind: 'percentage', text: '12.5 per cent', on: true }] },
  { reply: 'Save 50 now.', facts: ['50% off'], claims: [{ kind: 'number', text: '50', on: false }] },
  // numbers
  { reply: 'We have 3 seats.', facts: ['3 seats'], claims: [{ kind: 'number', text: '3', on: true }] },
  { reply: 'We have three seats.', facts: ['3 seats'], claims: [{ kind: 'number', text: 'three', on: true }] },
  { reply: 'We have 4 seats.', facts: ['3 seats'], claims: [{ kind: 'number', text: '4', on: false }] },
  { reply: 'Over 10,000 users.', facts: ['10000 users'], claims: [{ kind: 'number', text: '10,000', on: true }] },
  { reply: 'Over twenty-five users.', facts: ['25 users'], claims: [{ kind: 'number', text: 'twenty-five', on: true }] },
  { reply: 'Over one hundred and two users.', facts: ['102 users'], claims: [{ kind: 'number', text: 'one hundred and two', on: true }] },
  { reply: 'Over 2.5 million users.', source: 'We serve 2,500,000 users.', claims: [{ kind: 'number', text: '2.5 million', on: true }] },
  { reply: 'Pick the one you like, in 2 days.', facts: ['2 days'], claims: [{ kind: 'number', text: '2', on: true }] },
  { reply: 'It ships in 7 days.', facts: ['It ships in seven days.'], claims: [{ kind: 'number', text: '7', on: true }] },
  // URLs: with or without the trailing slash, scheme or www.
  { reply: 'See https://acme.io/pricing now.', facts: ACME, claims: [{ kind: 'url', text: 'https://acme.io/pricing', on: true }] },
  { reply: 'See acme.io/pricing/ now.', facts: ['acme.io/pricing'], claims: [{ kind: 'url', text: 'acme.io/pricing/', on: true }] },
  { reply: 'See https://www.Acme.io/pricing now.', facts: ['acme.io/pricing'], claims: [{ kind: 'url', text: 'https://www.Acme.io/pricing', on: true }] },
  { reply: 'See acme.io/plans now.', facts: ACME, claims: [{ kind: 'url', text: 'acme.io/plans', on: false }] },
  { reply: 'See https://acme.io/pricing?plan=pro now.', facts: ACME, claims: [{ kind: 'url', text: 'https://acme.io/pricing?plan=pro', on: false }] },
  // emails
  { reply: 'Mail Sales@Acme.io today.', facts: ACME, claims: [{ kind: 'email', text: 'Sales@Acme.io', on: true }] },
  { reply: 'Mail help@acme.io today.', facts: ACME, claims: [{ kind: 'email', text: 'help@acme.io', on: false }] },
  // phone numbers in any format
  { reply: 'Call (415) 555-2671.', facts: ACME, claims: [{ kind: 'phone', text: '(415) 555-2671', on: true }] },
  { reply: 'Call 415.555.2671 today.', facts: ['(415) 555-2671'], claims: [{ kind: 'phone', text: '415.555.2671', on: true }] },
  { reply: 'Call +1-415-555-2671 today.', source: 'Phone: 4155552671', claims: [{ kind: 'phone', text: '+1-415-555-2671', on: true }] },
  { reply: 'Call (415) 555-2672.', facts: ACME, claims: [{ kind: 'phone', text: '(415) 555-2672', on: false }] },
  { reply: 'Call +44 20 7946 0958.', facts: ACME, claims: [{ kind: 'phone', text: '+44 20 7946 0958', on: false }] },
  // product names: approved names in any case, or runs of capitalized words
  { reply: 'Try Acme Pro Plan now.', facts: ACME, claims: [{ kind: 'product', text: 'Acme Pro Plan', on: true }] },
  { reply: 'try the acme pro plan now.', facts: ACME, claims: [{ kind: 'product', text: 'acme pro plan', on: true }] },
  { reply: 'Try Zeta Max now.', facts: ACME, claims: [{ kind: 'product', text: 'Zeta Max', on: false }] },
  { reply: 'Our Acme 360 is great.', facts: ['Acme 360'], claims: [{ kind: 'product', text: 'Acme 360', on: true }] },
  { reply: 'Get the iPhone Pro today.', facts: ACME, claims: [{ kind: 'product', text: 'iPhone Pro', on: false }] },
  // not claims: versions, identifiers, ordinals, "one" as a pronoun
  { reply: 'Version v2.5 of x402 is the 3rd, the one you want.', facts: ACME, claims: [] },
  // offsets are UTF-16 code units: an emoji counts two
  {
    reply: '😀 Costs $5 at acme.io 👍 or call (415) 555-2671',
    facts: ['$5', 'acme.io'],
    claims: [
      { kind: 'price', text: '$5', on: true, at: 9 },
      { kind: 'url', text: 'acme.io', on: true, at: 15 },
      { kind: 'phone', text: '(415) 555-2671', on: false, at: 34 },
    ],
  },
  // several kinds in one reply, in text order
  {
    reply: 'The Acme Pro Plan is five dollars, 50% off; see acme.io/pricing/ or call 415-555-2671, and 2 seats.',
    facts: ACME,
    claims: [
      { kind: 'product', text: 'Acme Pro Plan', on: true },
      { kind: 'price', text: 'five dollars', on: true },
      { kind: 'percentage', text: '50%', on: true },
      { kind: 'url', text: 'acme.io/pricing/', on: true },
      { kind: 'phone', text: '415-555-2671', on: true },
      { kind: 'number', text: '2', on: false, at: 91 },
    ],
  },
];

function inputOf(row: Row): ScriptCheckInput {
  return { reply_text: row.reply, ...(row.facts ? { approved_facts: row.facts } : {}), ...(row.source ? { source_text: row.source } : {}) };
}

describe('checkScript', () => {
  it('has a table of at least 40 claims, each kind on and off script', () => {
    const all = TABLE.flatMap((row) => row.claims);
    expect(all.length).to.be.at.least(40);
    for (const kind of ['price', 'percentage', 'number', 'url', 'email', 'phone', 'product'] as const) {
      expect(all.filter((c) => c.kind === kind && c.on).length, `${kind} on script`).to.be.at.least(1);
      expect(all.filter((c) => c.kind === kind && !c.on).length, `${kind} off script`).to.be.at.least(1);
    }
  });

  for (const row of TABLE) {
    const label = row.claims.length === 0 ? 'no claim' : row.claims.map((c) => `${c.kind} "${c.text}" ${c.on ? 'on' : 'off'}`).join(', ');
    it(`finds ${label} in ${JSON.stringify(row.reply)}`, () => {
      const result = checkScript(inputOf(row));
      const expected = row.claims.map((c) => {
        const start = c.at ?? row.reply.indexOf(c.text);
        return { kind: c.kind, text: c.text, start, end: start + c.text.length, on_script: c.on };
      });
      const actual = result.claims.map((c) => ({ kind: c.kind, text: c.text, start: c.start, end: c.end, on_script: c.on_script }));
      expect(actual).to.deep.equal(expected);
      expect(result.claims.map((c) => row.reply.slice(c.start, c.end))).to.deep.equal(row.claims.map((c) => c.text));
    });
  }

  it('says where the approved material states an on-script value, in the fact or the source text', () => {
    const result = checkScript({ reply_text: 'Call (415) 555-2671 about the $5 plan.', approved_facts: ['Hours: 9 to 5', 'Plan: 5 dollars'], source_text: 'Phone: 415 555 2671.' });
    expect(result.claims.map((c) => c.matched)).to.deep.equal([
      { from: 'source_text', start: 7, end: 19, text: '415 555 2671' },
      { from: 'approved_facts', index: 1, start: 6, end: 15, text: '5 dollars' },
    ]);
  });

  it('scores adherence as the share of claims on script, and names the first off-script claim with the approved alternative', () => {
    const result = checkScript({ reply_text: 'The Acme Pro Plan is $7 and 50% off.', approved_facts: ACME });
    expect(result).to.include({ claims_checked: 3, on_script: 2, off_script: 1, adherence_score: 66.7 });
    expect(result.by_kind.price).to.deep.equal({ on_script: 0, off_script: 1 });
    expect(result.claims[1].approved_alternatives).to.deep.equal(['$5.00']);
    expect(result.improvement).to.equal('Off script: the price "$7" at 21-23; rephrase it from the approved facts (the approved price is "$5.00").');
  });

  it('gives a full score and says so when the reply makes no checkable claim', () => {
    const result = checkScript({ reply_text: 'Happy to help with that.', approved_facts: ACME });
    expect(result).to.include({ claims_checked: 0, adherence_score: 100 });
    expect(result.improvement).to.match(/^No checkable claims/);
  });

  it('suggests removing a claim of a kind the approved material never states', () => {
    const result = checkScript({ reply_text: 'Mail help@acme.io or see acme.io/x.', source_text: 'We answer within a day.' });
    expect(result.adherence_score).to.equal(0);
    expect(result.improvement).to.equal(
      'Off script: the email address "help@acme.io" at 5-17; remove it or add it to the approved facts (they state no email address), then do the same for the 1 other off-script claim.',
    );
  });
});
