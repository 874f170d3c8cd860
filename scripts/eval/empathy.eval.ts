import { analyze } from '../../shared/scoring/analyze';
import { measureEmpathy } from '../../shared/scoring/empathy';
import type { MechanismLevel } from '../../shared/scoring/measure-types';
import { annomiTherapistTurns, esconvReplies, esconvStrategyTurns, foldOf, readCsv, receptiveReplies, wassaTurns } from '../lib/dev-data';
import { auroc, macroF1, ranks, spearman } from '../lib/stats';
import { atLeast, info, type EvalRow } from './eval-row';

const DATASET = 'epitome reddit';
const MECHANISMS = ['er', 'ip', 'ex'] as const;

interface Scored {
  fold: number;
  total: number;
  truth: Record<(typeof MECHANISMS)[number], number>;
  predicted: Record<(typeof MECHANISMS)[number], MechanismLevel>;
  value: number;
  load: number;
}

/**
 * Empathy on EPITOME Reddit (rows re-rated in the expert study are dropped): Spearman of the measured
 * value against total_0_6, per-mechanism macro-F1 of the predicted levels (0/1/2, and present vs absent,
 * which is what scoring.md's lexicon check reported: .75/.78/.69), and the same Spearman on fold 0,
 * which the weight fit never sees.
 * @returns the target row and informational rows
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows = readCsv('epitome', 'epitome_merged.csv').filter((r) => r.in_kumar2025_sample !== '1');
  const scored: Scored[] = rows.map((r) => {
    const m = measureEmpathy(analyze(r.response_post), analyze(r.seeker_post));
    return {
      fold: foldOf(r.rp_id),
      total: Number(r.total_0_6),
      truth: { er: Number(r.er_level), ip: Number(r.ip_level), ex: Number(r.ex_level) },
      predicted: m.mechanisms,
      value: m.value,
      load: m.emotionalLoad,
    };
  });
  const rho = (xs: Scored[]) => spearman(xs.map((x) => x.value), xs.map((x) => x.total));
  const fold0 = scored.filter((x) => x.fold === 0);
  const out: EvalRow[] = [
    ...outOfSource(),
    ...otherCommunities(),
    info('in-domain Spearman empathy vs total_0_6', DATASET, scored.length, rho(scored)),
    info('in-domain Spearman empathy vs total_0_6, fold 0', `${DATASET}, fold 0`, fold0.length, rho(fold0)),
  ];
  for (const mech of MECHANISMS) {
    const truth = scored.map((x) => x.truth[mech]);
    const pred = scored.map((x) => x.predicted[mech]);
    out.push(info(`macro-F1 ${mech.toUpperCase()} level 0/1/2`, DATASET, scored.length, macroF1(truth, pred)));
    out.push(info(`macro-F1 ${mech.toUpperCase()} present vs absent`, DATASET, scored.length, macroF1(truth.map((v) => +(v > 0)), pred.map((v) => +(v > 0)))));
  }
  out.push(info('mean emotional load of seeker posts', DATASET, scored.length, scored.reduce((s, x) => s + x.load, 0) / scored.length));
  return out;
}

/**
 * ESConv support strategies that express or reflect the seeker's feelings (EPITOME's emotional
 * reactions and interpretations), against those that only inform or advise. The annotators labelled
 * what each turn does, which is closer to empathy than the seeker's 1-5 feedback on the whole chat.
 */
const EMOTIONAL_STRATEGIES = new Set(['Reflection of feelings', 'Affirmation and Reassurance', 'Approval and Reassurance', 'Restatement or Paraphrasing', 'Restatement']);
const PRACTICAL_STRATEGIES = new Set(['Information', 'Providing Suggestions', 'Direct Guidance']);

/**
 * Each value's rank within its conversation, scaled to 0..1, so chats pool without one chat's level
 * (a generous rater, a talkative supporter) standing in for the reply's: the outside measurement's
 * "pooled within-set ranks".
 */
function withinRanks(groups: readonly number[], xs: readonly number[]): number[] {
  const out = new Array<number>(xs.length).fill(0);
  const byGroup = new Map<number, number[]>();
  groups.forEach((g, i) => byGroup.set(g, [...(byGroup.get(g) ?? []), i]));
  for (const idx of byGroup.values()) {
    const r = ranks(idx.map((i) => xs[i]));
    idx.forEach((i, k) => (out[i] = (r[k] - 0.5) / idx.length));
  }
  return out;
}

/**
 * Out of source: ESConv supporter replies (esconv-failed, never read by a fit) against the
 * help-seeker's own ratings: per reply against the 1-5 feedback (ranked within each conversation and
 * pooled, and raw), and per conversation (mean over its rated replies) against the post-chat empathy
 * survey; and the strategy AUROC above. Emotional-support chat, not Reddit.
 * @returns the out-of-source rows
 */
function outOfSource(): EvalRow[] {
  const replies = esconvReplies().filter((r) => r.reply.trim() !== '');
  const values = replies.map((r) => measureEmpathy(analyze(r.reply), r.seekerContext.trim() ? analyze(r.seekerContext) : undefined).value);
  const byConv = new Map<number, { sum: number; n: number; empathy: number }>();
  replies.forEach((r, i) => {
    if (r.convEmpathy === null) return;
    const c = byConv.get(r.convId) ?? { sum: 0, n: 0, empathy: r.convEmpathy };
    c.sum += values[i];
    c.n++;
    byConv.set(r.convId, c);
  });
  const convs = [...byConv.values()];
  const groups = replies.map((r) => r.convId);
  const turns = esconvStrategyTurns().filter((t) => EMOTIONAL_STRATEGIES.has(t.strategy) || PRACTICAL_STRATEGIES.has(t.strategy));
  const turnValues = turns.map((t) => measureEmpathy(analyze(t.reply), t.seekerContext ? analyze(t.seekerContext) : undefined).value);
  return [
    info(
      'OOD AUROC empathy, emotional vs practical strategy',
      'esconv-failed supporter turns (unused source, ESConv strategy labels)',
      turns.length,
      auroc(turnValues, turns.map((t) => EMOTIONAL_STRATEGIES.has(t.strategy))),
    ),
    atLeast(
      'OOD Spearman empathy vs seeker feedback, within-conv',
      'esconv-failed replies, within-conv ranks pooled',
      replies.length,
      spearman(withinRanks(groups, values), withinRanks(groups, replies.map((r) => r.feedback))),
      0.4,
    ),
    info('OOD Spearman empathy vs seeker feedback', 'esconv-failed replies (unused source)', replies.length, spearman(values, replies.map((r) => r.feedback))),
    info('OOD Spearman mean empathy vs conv empathy', 'esconv-failed conversations (unused source)', convs.length, spearman(convs.map((c) => c.sum / c.n), convs.map((c) => c.empathy))),
  ];
}

/** The engine's empathy value of a reply to a message (no message when it is blank). */
function valueOf(text: string, incoming: string): number {
  return measureEmpathy(analyze(text), incoming.trim() ? analyze(incoming) : undefined).value;
}

/**
 * Other communities rated by other people, with the shipped engine: WASSA 2023 chat turns of at
 * least 5 words (third-party empathy ratings, dev split), AnnoMI therapist reflections against the
 * therapist's other utterances, AnnoMI sessions by mean empathy (high- vs low-quality counselling),
 * and receptiveness to an opposing view (Yeomans et al., a neighbouring construct).
 * @returns the rows
 */
function otherCommunities(): EvalRow[] {
  const wassa = wassaTurns().filter((t) => t.split === 'dev' && t.words >= 5);
  const annomi = annomiTherapistTurns().filter((t) => t.text !== '');
  const annomiValues = annomi.map((t) => valueOf(t.text, t.client));
  const sessions = new Map<number, { sum: number; n: number; high: boolean }>();
  annomi.forEach((t, i) => {
    const s = sessions.get(t.transcriptId) ?? { sum: 0, n: 0, high: t.quality === 'high' };
    s.sum += annomiValues[i];
    s.n++;
    sessions.set(t.transcriptId, s);
  });
  const receptive = receptiveReplies();
  return [
    atLeast('OOD Spearman empathy vs rated empathy, shipped', 'wassa23 dev turns >= 5 words', wassa.length, spearman(wassa.map((t) => valueOf(t.text, t.previous)), wassa.map((t) => t.empathy)), 0.35),
    atLeast('OOD AUROC empathy, reflections vs other, shipped', 'annomi therapist turns', annomi.length, auroc(annomiValues, annomi.map((t) => t.reflection !== 'none')), 0.7),
    info('OOD AUROC mean empathy, high vs low MI quality', 'annomi sessions', sessions.size, auroc([...sessions.values()].map((s) => s.sum / s.n), [...sessions.values()].map((s) => s.high))),
    info('OOD Spearman empathy vs receptiveness (neighbour)', 'yeomans receptiveness study 1', receptive.length, spearman(receptive.map((r) => valueOf(r.text, r.seed)), receptive.map((r) => r.rating))),
  ];
}
