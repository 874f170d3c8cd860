import { extractClaims, type Claim, type ClaimKind } from './extract-claims';

/** What a script check compares: a reply against approved facts and/or a source text. */
export interface ScriptCheckInput {
  reply_text: string;
  approved_facts?: readonly string[];
  source_text?: string;
}

/** Where an on-script claim's value was found in the approved material (offsets in that string). */
export type ClaimSource =
  | { from: 'approved_facts'; index: number; start: number; end: number; text: string }
  | { from: 'source_text'; start: number; end: number; text: string };

/** A claim of the reply with its verdict. */
export interface CheckedClaim extends Claim {
  on_script: boolean;
  /** On script: the first approved place stating the same value. */
  matched: ClaimSource | null;
  /** Off script: approved values of the same kind, as written there (at most 3), to rephrase from. */
  approved_alternatives: string[];
}

/** The result of a script check. */
export interface ScriptCheckResult {
  /** Share of the reply's claims that are on script, 0-100 (one decimal); 100 when it has none. */
  adherence_score: number;
  claims_checked: number;
  on_script: number;
  off_script: number;
  claims: CheckedClaim[];
  /** Claims of each kind found in the reply, on and off script. */
  by_kind: Record<ClaimKind, { on_script: number; off_script: number }>;
  improvement: string;
}

/** What the check is and is not, shown with every result. */
export const SCRIPT_CHECK_METHOD =
  'Pure string and number matching: a claim is on script when the approved facts or the source text state the same value ' +
  '(equal amounts written differently match, e.g. "$5", "5.00 USD" and "five dollars"; "50%" and "50 percent"; a phone ' +
  'number in any format; a URL with or without its trailing slash). It is not factual-accuracy detection: it never checks ' +
  'whether the approved material is true, and it cannot judge claims it does not recognize.';

const KIND_LABELS: Readonly<Record<ClaimKind, string>> = {
  price: 'price',
  percentage: 'percentage',
  number: 'number',
  url: 'URL',
  email: 'email address',
  phone: 'phone number',
  product: 'product name',
};

interface ApprovedClaim extends Claim {
  source: ClaimSource;
}

/**
 * Checks a reply against its script: every checkable claim of the reply (see `extractClaims`) is
 * on script when a claim of the same kind and value appears in the approved facts or the source
 * text, else off script. Product names found in the approved material are recognized in the reply
 * in any letter case. Pure: no I/O, same input, same output.
 * @param input - the reply and its approved material
 * @returns the claims with their verdicts, the adherence score and one next step
 */
export function checkScript(input: ScriptCheckInput): ScriptCheckResult {
  const approved: ApprovedClaim[] = [];
  (input.approved_facts ?? []).forEach((fact, index) => {
    for (const c of extractClaims(fact)) approved.push({ ...c, source: { from: 'approved_facts', index, start: c.start, end: c.end, text: c.text } });
  });
  if (input.source_text !== undefined) {
    for (const c of extractClaims(input.source_text)) approved.push({ ...c, source: { from: 'source_text', start: c.start, end: c.end, text: c.text } });
  }
  const knownProducts = approved.filter((c) => c.kind === 'product').map((c) => c.text);
  // First approved claim per kind and value, and the first three distinct texts per kind.
  const firstByValue = new Map<string, ApprovedClaim>();
  const textsByKind = new Map<ClaimKind, Set<string>>();
  for (const a of approved) {
    const key = `${a.kind}\u0000${a.value}`;
    if (!firstByValue.has(key)) firstByValue.set(key, a);
    const texts = textsByKind.get(a.kind) ?? new Set<string>();
    if (texts.size < 3) texts.add(a.text);
    textsByKind.set(a.kind, texts);
  }

  const claims: CheckedClaim[] = extractClaims(input.reply_text, { knownProducts }).map((claim) => {
    const match = firstByValue.get(`${claim.kind}\u0000${claim.value}`);
    const alternatives = match ? [] : [...(textsByKind.get(claim.kind) ?? [])];
    return { ...claim, on_script: match !== undefined, matched: match?.source ?? null, approved_alternatives: alternatives };
  });
  const on = claims.filter((c) => c.on_script).length;
  const byKind = Object.fromEntries(Object.keys(KIND_LABELS).map((k) => [k, { on_script: 0, off_script: 0 }])) as ScriptCheckResult['by_kind'];
  for (const c of claims) byKind[c.kind][c.on_script ? 'on_script' : 'off_script'] += 1;
  return {
    adherence_score: claims.length === 0 ? 100 : Math.round((on / claims.length) * 1000) / 10,
    claims_checked: claims.length,
    on_script: on,
    off_script: claims.length - on,
    claims,
    by_kind: byKind,
    improvement: improvementFor(claims),
  };
}

function improvementFor(claims: readonly CheckedClaim[]): string {
  const off = claims.filter((c) => !c.on_script);
  if (claims.length === 0) {
    return 'No checkable claims (prices, numbers, percentages, URLs, emails, phone numbers, product names) were found; nothing to rephrase.';
  }
  if (off.length === 0) return 'Every checkable claim is on script; keep quoting values exactly as the approved facts state them.';
  const first = off[0];
  const label = KIND_LABELS[first.kind];
  const rephrase =
    first.approved_alternatives.length > 0
      ? `rephrase it from the approved facts (the approved ${label}${first.approved_alternatives.length > 1 ? 's are' : ' is'} ${first.approved_alternatives.map((a) => `"${a}"`).join(', ')})`
      : `remove it or add it to the approved facts (they state no ${label})`;
  const others = off.length - 1;
  return `Off script: the ${label} "${first.text}" at ${first.start}-${first.end}; ${rephrase}${others > 0 ? `, then do the same for the ${others} other off-script claim${others > 1 ? 's' : ''}` : ''}.`;
}
