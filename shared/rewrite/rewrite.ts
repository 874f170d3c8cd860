import { findProfile } from '../profiles';
import { ScoringInputError, scoreText, type DimensionId, type ProfileResult, type ScoreResult } from '../scoring';
import { cannedPhrases, contractions, directness, empathy, hedges, lengthCuts, register, sentencesOf, type GeneratorInput } from './candidates';
import { keepsAiHonesty } from './human-claim';
import { applyEdits, conflicts, type Candidate, type RewriteDial } from './text-edit';

/** What to rewrite, toward which profile, with the context the score needs. */
export interface RewriteInput {
  text: string;
  /** A profile id (one of the 28). */
  profile: string;
  delaySeconds?: number;
  incoming?: string;
}

/** A score as the rewrite reports it, before and after. */
export interface RewriteScore {
  eq_score: number;
  passed: boolean;
  style_fit: number;
  machine_penalty: number;
  /** Per text dimension: what the engine measured and the profile's target. */
  dimensions: Record<DimensionId, { measured: number; target: number }>;
  /** Machine-like signals still present. */
  signals: string[];
}

/** One kept edit: the original text's `[start, end)` became `after`, now at `[new_start, new_end)`. */
export interface RewriteEdit {
  dial: RewriteDial;
  reason: string;
  start: number;
  end: number;
  before: string;
  after: string;
  new_start: number;
  new_end: number;
}

/** The rewrite: the new text, its before and after scores by the same engine, and every edit. */
export interface RewriteResult {
  profile: string;
  scorer_version: string;
  changed: boolean;
  text: string;
  note: string;
  before: RewriteScore;
  after: RewriteScore;
  edits: RewriteEdit[];
  /** The after score's one next step. */
  improvement: string;
}

/** A stage turns one dial; `exclusive` stages offer alternatives of which at most one is kept. */
interface Stage {
  generate(input: GeneratorInput): Candidate[];
  exclusive?: boolean;
}

// Machine tells first (they cost the most), then length, then the four measured dials.
const STAGES: readonly Stage[] = [
  { generate: cannedPhrases },
  { generate: lengthCuts, exclusive: true },
  { generate: contractions },
  { generate: register },
  { generate: hedges },
  { generate: directness },
  { generate: empathy },
];

const DIMS: readonly DimensionId[] = ['empathy', 'formality', 'directness', 'hesitation'];

const raw = (v: ProfileResult) => v.style_fit * (1 - v.machine_penalty);

// An edit is kept only if the EQ score does not go down, the unrounded score goes up, a pass stays a
// pass, and empathy fits the profile no worse than in the original text: an edit that deletes the
// only empathetic sentence of a reply for a warm profile is refused even when the canned phrase inside
// it cost more than the warmth was worth. Judged against the original, not the previous step, so a
// later edit may give back a little of what an earlier one gained. The other dials may dip on the way
// (deleting a canned closer makes a reply more formal until the signposting goes too) unless `strict`;
// rewriteText keeps a finished rewrite only if none of the four fits worse than in the original.
function better(next: ProfileResult, current: ProfileResult, original: ProfileResult, strict: boolean): boolean {
  const guarded = strict ? DIMS : (['empathy'] as const);
  return next.eq_score >= current.eq_score && raw(next) > raw(current) + 1e-9 && (next.passed || !current.passed) && guarded.every((d) => !lowersFit(next, original, d));
}

/**
 * Whether a rewrite made a dimension fit the profile worse (beyond the rounding of the result): it
 * took away something the profile rewards, or added what it does not.
 * @param after - the verdict on the rewritten text
 * @param before - the verdict on the text it was made from
 * @param dim - the dimension
 * @returns true when the dimension's fit went down
 */
export function lowersFit(after: ProfileResult, before: ProfileResult, dim: DimensionId): boolean {
  return after.dimensions[dim].fit < before.dimensions[dim].fit - 5e-4;
}

function scoreOf(score: ScoreResult): RewriteScore {
  const v = verdictOf(score);
  return {
    eq_score: v.eq_score,
    passed: v.passed,
    style_fit: v.style_fit,
    machine_penalty: v.machine_penalty,
    dimensions: Object.fromEntries(DIMS.map((d) => [d, { measured: v.dimensions[d].measured, target: v.dimensions[d].target }])) as RewriteScore['dimensions'],
    signals: v.signals.map((s) => s.id),
  };
}

function verdictOf(score: ScoreResult): ProfileResult {
  if (!score.result) throw new Error('a rewrite is always scored against its target profile');
  return score.result;
}

/**
 * Rewrites a reply toward a profile's measured dials (canned phrases, length, contractions,
 * register, hedges, directness, warmth). Every candidate edit is scored by the engine on the whole
 * rewritten text and kept only when the profile's score goes up (greedy, stage by stage; a stage's
 * rejected edits are then tried once together, for changes that only count in numbers). Edits are
 * placed by their offsets in the original text. No edit may add a claim to be human or remove an
 * AI self-disclosure. Deterministic: the same input always gives the same rewrite.
 * @param input - text, profile, delay and incoming message
 * @returns the rewrite; `changed: false` with the original text when no edit raised the score
 * @throws ScoringInputError when the engine refuses the input (unknown profile, empty text, ...)
 */
export function rewriteText(input: RewriteInput): RewriteResult {
  const profile = findProfile(input.profile);
  if (!profile) throw new ScoringInputError('unknown_profile', 'profile', `Unknown profile "${input.profile}".`);
  const base = { profile: input.profile, delaySeconds: input.delaySeconds, incoming: input.incoming };
  const original = input.text;
  const first = scoreText({ ...base, text: original });
  const sentences = sentencesOf(original);
  const words = original.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  // Truthful AI self-disclosure is never edited.
  const locked = verdictOf(first).signals.filter((s) => s.id === 'ai-self-disclosure').flatMap((s) => s.spans);
  const touchesLocked = (c: Candidate) => c.parts.some((p) => locked.some((l) => p.start < l.end && l.start < p.end));

  // Two passes at most: the first lets the other dials dip on the way (a canned closer's deletion
  // makes the reply more formal until the signposting goes too) and is kept when the finished rewrite
  // fits no dimension worse than the original; otherwise the second refuses every edit that would.
  const pass = (strict: boolean): { accepted: Candidate[]; current: ScoreResult } => {
    const accepted: Candidate[] = [];
    let current = first;
    const attempt = (extra: Candidate[]): ScoreResult | undefined => {
      const { text } = applyEdits(original, [...accepted, ...extra].flatMap((c) => c.parts));
      if (!/[\p{L}\p{N}]/u.test(text) || !keepsAiHonesty(original, text)) return undefined;
      try {
        const next = scoreText({ ...base, text });
        return better(verdictOf(next), verdictOf(current), verdictOf(first), strict) ? next : undefined;
      } catch (err) {
        if (err instanceof ScoringInputError) return undefined;
        throw err;
      }
    };

    for (const stage of STAGES) {
      const candidates = stage
        .generate({ text: original, incoming: input.incoming, sentences, profile, verdict: verdictOf(current), words })
        .filter((c) => !touchesLocked(c) && !conflicts(c, accepted) && !c.parts.some((p, i) => c.parts.some((q, j) => i < j && p.start < q.end && q.start < p.end)));
      if (stage.exclusive) {
        let best: { c: Candidate; score: ScoreResult } | undefined;
        for (const c of candidates) {
          const next = attempt([c]);
          if (next && (!best || raw(verdictOf(next)) > raw(verdictOf(best.score)) + 1e-9)) best = { c, score: next };
        }
        if (best) {
          accepted.push(best.c);
          current = best.score;
        }
        continue;
      }
      const rejected: Candidate[] = [];
      for (const c of candidates) {
        if (conflicts(c, accepted)) continue;
        const next = attempt([c]);
        if (next) {
          accepted.push(c);
          current = next;
        } else rejected.push(c);
      }
      // Some changes only count together (e.g. the share of contractions); try the rest as one batch.
      const batch: Candidate[] = [];
      for (const c of rejected) if (!conflicts(c, accepted) && !conflicts(c, batch)) batch.push(c);
      if (batch.length > 1) {
        const next = attempt(batch);
        if (next) {
          accepted.push(...batch);
          current = next;
        }
      }
    }

    return { accepted, current };
  };
  let run = pass(false);
  if (DIMS.some((d) => lowersFit(verdictOf(run.current), verdictOf(first), d))) run = pass(true);
  const { accepted, current } = run;
  const { text, placed } = applyEdits(original, accepted.flatMap((c) => c.parts));
  const edits: RewriteEdit[] = placed.map((p) => {
    const c = accepted.find((a) => a.parts.some((q) => q.start === p.start && q.end === p.end && q.after === p.after));
    return {
      dial: c?.dial ?? 'canned-phrases',
      reason: c?.reason ?? '',
      start: p.start,
      end: p.end,
      before: original.slice(p.start, p.end),
      after: p.after,
      new_start: p.newStart,
      new_end: p.newEnd,
    };
  });
  const before = scoreOf(first);
  const after = scoreOf(current);
  const changed = accepted.length > 0;
  return {
    profile: profile.id,
    scorer_version: current.scorer_version,
    changed,
    text: changed ? text : original,
    note: changed
      ? `${edits.length} edit(s) raised the EQ score from ${before.eq_score} to ${after.eq_score}; each was kept only because the score went up.`
      : 'No edit raised the EQ score for this profile; the text is returned unchanged.',
    before,
    after,
    edits,
    improvement: verdictOf(current).advice.improvement,
  };
}
