import { PROFILES } from '../../shared/profiles';
import { scoreText, type DimensionId, type ProfileResult } from '../../shared/scoring';
import { DIMENSION_PHRASES, EMPATHY_UP_PHRASES, type PhraseSet } from '../../shared/scoring/advice-phrases';
import { strengthFor } from '../../shared/scoring/advise';
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
}

/**
 * Counts the advice problems of issue 16 in one deep verdict, from the output alone.
 * @param r - a deep profile result
 * @returns the tally
 */
export function tallyAdvice(r: ProfileResult): AdviceTally {
  const t: AdviceTally = { items: 0, withinTolerance: 0, zeroGain: 0, contradictions: 0 };
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
  return t;
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
  const total: AdviceTally = { items: 0, withinTolerance: 0, zeroGain: 0, contradictions: 0 };
  let verdicts = 0;
  for (const input of inputs) {
    for (const profile of PROFILES) {
      let result: ProfileResult | undefined;
      try {
        result = scoreText({ ...input, profile: profile.id, deep: true }).result;
      } catch {
        continue; // input the engine refuses (empty, other language) has no advice
      }
      if (!result) continue;
      verdicts++;
      const t = tallyAdvice(result);
      total.items += t.items;
      total.withinTolerance += t.withinTolerance;
      total.zeroGain += t.zeroGain;
      total.contradictions += t.contradictions;
    }
  }
  const dataset = 'epitome + esconv + truthfulqa x 28 profiles, deep';
  return [
    atMost('OOD advice items on a dimension within tolerance (share)', dataset, total.items, total.withinTolerance / Math.max(1, total.items), 0),
    atMost('OOD rewrite steps with zero expected gain', dataset, verdicts, total.zeroGain, 0),
    atMost('OOD advice pushing against the profile (full strength)', dataset, verdicts, total.contradictions, 0),
    info('advice items checked', dataset, verdicts, total.items),
  ];
}
