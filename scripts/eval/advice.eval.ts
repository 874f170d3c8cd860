import { PROFILES } from '../../shared/profiles';
import { rewriteText } from '../../shared/rewrite/rewrite';
import { scoreText, type DimensionId, type ProfileResult } from '../../shared/scoring';
import { DIMENSION_PHRASES, EMPATHY_UP_PHRASES, type PhraseSet } from '../../shared/scoring/advice-phrases';
import { strengthFor } from '../../shared/scoring/advise';
import { analyze } from '../../shared/scoring/analyze';
import { measureEmpathy } from '../../shared/scoring/empathy';
import { esconvReplies, foldOf, readCsv, truthfulqaPairs } from '../lib/dev-data';
import { atMost, info, type EvalRow } from './eval-row';

const DIMS: readonly DimensionId[] = ['empathy', 'formality', 'directness', 'hesitation'];

function phrasesOf(dim: DimensionId): PhraseSet[] {
  const out: PhraseSet[] = [];
  for (const dir of ['up', 'down'] as const) for (const strength of ['full', 'mild'] as const) out.push(DIMENSION_PHRASES[dim][dir][strength]);
  if (dim === 'empathy') out.push(...Object.values(EMPATHY_UP_PHRASES));
  return out;
}
const PHRASES = Object.fromEntries(DIMS.map((d) => [d, phrasesOf(d)])) as Record<DimensionId, PhraseSet[]>;

/** What the advice check counts in one verdict. */
export interface AdviceTally {
  /** Prompt lines and rewrite steps aimed at a dimension. */
  items: number;
  /** Of those, the ones aimed at a dimension already within its tolerance. */
  withinTolerance: number;
  /** Rewrite steps with zero expected gain. */
  zeroGain: number;
  /** Full-strength pushes against the profile's own side of the middle. */
  contradictions: number;
  /** Items asking for what the reply already does (reflect when it reflects, contract when it contracts, hedge a claim it does not make). */
  alreadyDone: number;
}

/** What the reply already does, measured once per reply for the "already done" check. */
export interface ReplyFacts {
  reacts: boolean;
  reflects: boolean;
  contracts: boolean;
  states: boolean;
}

/** The facts of one reply: empathy constructs, contractions and whether any sentence states something. */
export function factsOf(text: string, incoming?: string): ReplyFacts {
  const c = measureEmpathy(analyze(text), incoming?.trim() ? analyze(incoming) : undefined, false).constructs;
  return {
    reacts: (c.reaction ?? 0) + (c.support ?? 0) + (c.concern ?? 0) > 0,
    reflects: (c.reflection ?? 0) + (c.restatement ?? 0) + (c.validation ?? 0) > 0,
    contracts: /[A-Za-z](?:'|\u2019)(?:m|s|re|ve|ll|d|t)\b/i.test(text),
    states: text.split(/(?<=[.!?])\s+|\n+/).some((sentence) => /[\p{L}\p{N}]/u.test(sentence) && !sentence.trim().endsWith('?')),
  };
}

/**
 * Counts the advice problems (advice that contradicts the reply or its scores) in one deep verdict, from the output alone.
 * @param r - a deep profile result
 * @returns the tally
 */
export function tallyAdvice(r: ProfileResult, facts?: ReplyFacts): AdviceTally {
  const t: AdviceTally = { items: 0, withinTolerance: 0, zeroGain: 0, contradictions: 0, alreadyDone: 0 };
  const profile = PROFILES.find((p) => p.id === r.profile)!;
  const prompt = r.advice.suggested_prompt_addition;
  for (const dim of DIMS) {
    const d = r.dimensions[dim];
    const within = Math.abs(d.delta) <= d.tolerance - 0.001;
    const inPrompt = PHRASES[dim].filter((p) => prompt.includes(p.prompt)).length;
    const steps = (r.advice.rewrite_guidance ?? []).filter((s) => s.target === dim).length;
    t.items += inPrompt + steps;
    if (within) t.withinTolerance += inPrompt + steps;
    for (const dir of ['up', 'down'] as const) {
      if (strengthFor(profile.targets[dim], dir) === 'full') continue;
      const full = DIMENSION_PHRASES[dim][dir].full;
      if (prompt.includes(full.prompt) && !(dim === 'empathy' && dir === 'up')) t.contradictions++;
    }
  }
  t.zeroGain += (r.advice.rewrite_guidance ?? []).filter((s) => s.expected_gain <= 0).length;
  if (facts) {
    const all = [prompt, ...(r.advice.rewrite_guidance ?? []).map((s) => s.action)];
    const asks = (text: string) => all.filter((line) => line.includes(text)).length;
    if (facts.reacts) t.alreadyDone += asks(EMPATHY_UP_PHRASES.er.prompt) + asks(EMPATHY_UP_PHRASES.er.action);
    if (facts.reflects) t.alreadyDone += asks(EMPATHY_UP_PHRASES.ip.prompt) + asks(EMPATHY_UP_PHRASES.ip.action) + asks(EMPATHY_UP_PHRASES.er.prompt) + asks(EMPATHY_UP_PHRASES.er.action);
    if (facts.reacts) t.alreadyDone += asks(EMPATHY_UP_PHRASES.reaction.prompt) + asks(EMPATHY_UP_PHRASES.reaction.action);
    if (facts.contracts) t.alreadyDone += asks('contractions always') + asks(DIMENSION_PHRASES.formality.down.mild.prompt);
    if (!facts.states) for (const s of ['full', 'mild'] as const) t.alreadyDone += asks(DIMENSION_PHRASES.hesitation.up[s].prompt) + asks(DIMENSION_PHRASES.hesitation.up[s].action);
  }
  return t;
}

/** Dimensions a rewrite may not fit worse: the four text dials. */
const REWARDED: readonly DimensionId[] = DIMS;

/**
 * The rewrite check: a sample of dev replies (EPITOME responses, ESConv supporter replies, ChatGPT
 * TruthfulQA answers) rewritten toward each of the 28 profiles, and the share of rewrites after which
 * some dimension fits the profile worse than before, as the engine scores both texts.
 * @returns the number of rewrites and of those that lowered a rewarded dimension
 */
function rewriteCheck(): { n: number; lowered: number } {
  const inputs: { text: string; incoming?: string }[] = [
    ...readCsv('epitome', 'epitome_merged.csv')
      .filter((r) => foldOf(r.rp_id) === 1)
      .slice(0, 15)
      .map((r) => ({ text: r.response_post, incoming: r.seeker_post })),
    ...esconvReplies()
      .filter((r) => r.reply.split(/\s+/).length >= 8)
      .slice(0, 15)
      .map((r) => ({ text: r.reply, incoming: r.seekerContext || undefined })),
    ...truthfulqaPairs()
      .slice(0, 10)
      .map((p) => ({ text: p.ai, incoming: p.question })),
  ];
  let n = 0;
  let lowered = 0;
  for (const input of inputs) {
    for (const profile of PROFILES) {
      let r;
      try {
        r = rewriteText({ ...input, profile: profile.id });
      } catch {
        continue;
      }
      n++;
      if (!r.changed) continue;
      const before = scoreText({ ...input, profile: profile.id }).result!;
      const after = scoreText({ ...input, text: r.text, profile: profile.id }).result!;
      if (REWARDED.some((d) => after.dimensions[d].fit < before.dimensions[d].fit - 5e-4)) lowered++;
    }
  }
  return { n, lowered };
}

/**
 * The advice check over dev replies (EPITOME responses to their seeker posts, ESConv supporter
 * turns, TruthfulQA answers of both sides), each judged against all 28 profiles on the deep tier.
 * @returns the rows
 */
export async function evaluate(): Promise<EvalRow[]> {
  const inputs: { text: string; incoming?: string }[] = [
    ...readCsv('epitome', 'epitome_merged.csv')
      .filter((r) => foldOf(r.rp_id) === 0)
      .slice(0, 120)
      .map((r) => ({ text: r.response_post, incoming: r.seeker_post })),
    ...esconvReplies()
      .filter((r) => r.reply.split(/\s+/).length >= 5)
      .slice(0, 120)
      .map((r) => ({ text: r.reply, incoming: r.seekerContext || undefined })),
    ...truthfulqaPairs()
      .slice(0, 60)
      .flatMap((p) => [
        { text: p.human, incoming: p.question },
        { text: p.ai, incoming: p.question },
      ]),
  ];
  const total: AdviceTally = { items: 0, withinTolerance: 0, zeroGain: 0, contradictions: 0, alreadyDone: 0 };
  let verdicts = 0;
  for (const input of inputs) {
    let facts: ReplyFacts | undefined;
    try {
      facts = factsOf(input.text, input.incoming);
    } catch {
      facts = undefined;
    }
    for (const profile of PROFILES) {
      let result: ProfileResult | undefined;
      try {
        result = scoreText({ ...input, profile: profile.id, deep: true }).result;
      } catch {
        continue; // input the engine refuses (empty, other language) has no advice
      }
      if (!result) continue;
      verdicts++;
      const t = tallyAdvice(result, facts);
      total.items += t.items;
      total.withinTolerance += t.withinTolerance;
      total.zeroGain += t.zeroGain;
      total.contradictions += t.contradictions;
      total.alreadyDone += t.alreadyDone;
    }
  }
  const dataset = 'epitome + esconv + truthfulqa x 28 profiles, deep';
  const rewrites = rewriteCheck();
  return [
    atMost('OOD advice items on a dimension within tolerance (share)', dataset, total.items, total.withinTolerance / Math.max(1, total.items), 0),
    atMost('OOD advice items asking for what the reply does (share)', dataset, total.items, total.alreadyDone / Math.max(1, total.items), 0),
    atMost('OOD rewrites lowering a rewarded dimension (share)', 'epitome + esconv + truthfulqa-chatgpt x 28 profiles', rewrites.n, rewrites.lowered / Math.max(1, rewrites.n), 0),
    atMost('OOD rewrite steps with zero expected gain', dataset, verdicts, total.zeroGain, 0),
    atMost('OOD advice pushing against the profile (full strength)', dataset, verdicts, total.contradictions, 0),
    info('advice items checked', dataset, verdicts, total.items),
  ];
}
