import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * The development datasets live beside the project, never inside it (several licences are
 * non-commercial). HUMANLIKE_DEV_DATA overrides the location.
 */
export const DEV_DATA_DIR = resolve(process.env.HUMANLIKE_DEV_DATA ?? resolve(__dirname, '..', '..', '..', 'shared', 'datasets', 'dev'));

/** Absolute path of a file inside the development data folder; throws a clear error if absent. */
export function devPath(...parts: string[]): string {
  const p = resolve(DEV_DATA_DIR, ...parts);
  if (!existsSync(p)) throw new Error(`development data not found: ${p} (set HUMANLIKE_DEV_DATA)`);
  return p;
}

/** Reads a CSV with a header row into records. */
export function readCsv(...parts: string[]): Record<string, string>[] {
  return parse(readFileSync(devPath(...parts), 'utf8'), { columns: true, skip_empty_lines: true, relax_quotes: true, bom: true });
}

/** Reads a JSON-lines file. */
export function readJsonl<T = Record<string, unknown>>(...parts: string[]): T[] {
  return readFileSync(devPath(...parts), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** A human/AI pair from the provenance datasets. */
export interface TextPair {
  id: string;
  domain: string;
  generator: string;
  human: string;
  ai: string;
}

function sharedPrefixWords(a: string, b: string): number {
  const wa = a.split(/\s+/);
  const wb = b.split(/\s+/);
  let n = 0;
  while (n < wa.length && n < wb.length && wa[n] === wb[n]) n++;
  return n;
}

/**
 * Fast-DetectGPT pairs of one domain with the shared opening stripped from both sides
 * (both texts start with the same human prefix, which would otherwise leak the label).
 */
export function fastdetectPairs(domain: 'writing' | 'xsum'): TextPair[] {
  const rows = readJsonl<{ pair_id: string; domain: string; generator: string; human_text: string; ai_text: string }>('fastdetect-gpt34', 'pairs.jsonl');
  return rows
    .filter((r) => r.domain === domain)
    .map((r) => {
      const n = sharedPrefixWords(r.human_text, r.ai_text);
      const strip = (t: string) => t.split(/\s+/).slice(n).join(' ');
      return { id: String(r.pair_id), domain: r.domain, generator: r.generator, human: strip(r.human_text), ai: strip(r.ai_text) };
    });
}

/** MGTBench TruthfulQA pairs: the human best answer vs the ChatGPT answer, with the question. */
export function truthfulqaPairs(): (TextPair & { question: string })[] {
  const rows = readJsonl<{ pair_id: string | number; category: string; question: string; human_text: string; ai_text: string }>('mgtbench-truthfulqa', 'pairs.jsonl');
  return rows.map((r) => ({ id: String(r.pair_id), domain: 'truthfulqa', generator: 'chatgpt', human: r.human_text, ai: r.ai_text, question: r.question }));
}

/**
 * A deterministic fold for an item id (FNV-1a), so fitting and evaluation agree on which items
 * were held back without storing any split.
 */
export function foldOf(id: string, folds = 5): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % folds;
}

function stripPrefix(text: string, prefix: string): string {
  const words = text.split(/\s+/);
  const n = sharedPrefixWords(text, prefix);
  return words.slice(n).join(' ');
}

/**
 * M4 LLaMA-2 pairs (arxiv, reddit, wikihow, wikipedia) with the upstream formatting giveaways its
 * SOURCE.md lists removed from both sides: arXiv hard line wraps, `_URL_n_` placeholders and the
 * WikiHow `,,` join artefacts, so neither side is told apart by a file format.
 */
export function m4Pairs(): TextPair[] {
  const rows = readJsonl<{ pair_id: string; label: string; domain: string; generator: string; text: string }>('m4-llama2', 'items.jsonl');
  const clean = (domain: string, t: string): string => {
    let s = t.replace(/_URL_\d+_/g, '');
    if (domain === 'arxiv') s = s.replace(/\s*\n\s*/g, ' ');
    if (domain === 'wikihow') s = s.replace(/\n*,,\s*|\n\n,\s*/g, '\n\n');
    return s.trim();
  };
  const byPair = new Map<string, { human?: string; ai?: string; domain: string; generator: string }>();
  for (const r of rows) {
    const p = byPair.get(r.pair_id) ?? { domain: r.domain, generator: 'llama-2-70b-chat' };
    if (r.label === 'human') p.human = clean(r.domain, r.text);
    else p.ai = clean(r.domain, r.text);
    byPair.set(r.pair_id, p);
  }
  const out: TextPair[] = [];
  for (const [id, p] of byPair) if (p.human && p.ai) out.push({ id, domain: p.domain, generator: p.generator, human: p.human, ai: p.ai });
  return out;
}

/** Fast-DetectGPT open-model pairs (squad, writing, xsum x 5 base models), shared prompt stripped from both sides. */
export function fastdetectOpenPairs(): TextPair[] {
  const rows = readJsonl<{ pair_id: string; label: string; domain: string; generator: string; prompt: string; text: string }>('fastdetect-openmodels', 'items.jsonl');
  const byPair = new Map<string, { human?: string; ai?: string; domain: string; generator: string }>();
  for (const r of rows) {
    const p = byPair.get(r.pair_id) ?? { domain: r.domain, generator: '' };
    if (r.label === 'human') p.human = stripPrefix(r.text, r.prompt);
    else {
      p.ai = stripPrefix(r.text, r.prompt);
      p.generator = r.generator;
    }
    byPair.set(r.pair_id, p);
  }
  const out: TextPair[] = [];
  for (const [id, p] of byPair) if (p.human && p.ai) out.push({ id, domain: p.domain, generator: p.generator, human: p.human, ai: p.ai });
  return out;
}

/** One ESConv supporter reply with the help-seeker's own rating (esconv-failed/feedback_replies.jsonl). */
export interface EsconvReply {
  id: string;
  convId: number;
  seekerContext: string;
  reply: string;
  feedback: number;
  convEmpathy: number | null;
}

/** ESConv failed-conversation replies rated by the help-seeker (a source no fit reads). */
export function esconvReplies(): EsconvReply[] {
  return readJsonl<{ id: string; conv_id: number; seeker_context: string; reply: string; feedback: number; conv_empathy: number | null }>('esconv-failed', 'feedback_replies.jsonl').map(
    (r) => ({ id: r.id, convId: r.conv_id, seekerContext: r.seeker_context, reply: r.reply.trim(), feedback: r.feedback, convEmpathy: r.conv_empathy }),
  );
}

/** One ESConv supporter turn with its annotated support strategy and the seeker turns just before it. */
export interface EsconvStrategyTurn {
  id: string;
  seekerContext: string;
  reply: string;
  strategy: string;
}

/**
 * Every supporter turn of esconv-failed/FailedESConv.json with its ESConv strategy (Liu et al. 2021:
 * Reflection of feelings, Affirmation and Reassurance, Information, Providing Suggestions, ...) and
 * the help-seeker turns since the previous supporter turn. No fit reads this file.
 */
export function esconvStrategyTurns(): EsconvStrategyTurn[] {
  const convs = JSON.parse(readFileSync(devPath('esconv-failed', 'FailedESConv.json'), 'utf8')) as {
    dialog: { speaker: string; annotation?: { strategy?: string }; content: string }[];
  }[];
  const out: EsconvStrategyTurn[] = [];
  convs.forEach((conv, c) => {
    let seeker: string[] = [];
    conv.dialog.forEach((turn, i) => {
      if (turn.speaker !== 'listener') {
        seeker.push(turn.content.trim());
        return;
      }
      const strategy = turn.annotation?.strategy;
      if (strategy && turn.content.trim()) out.push({ id: `${c}:${i}`, seekerContext: seeker.join(' '), reply: turn.content.trim(), strategy });
      seeker = [];
    });
  });
  return out;
}

/** One WASSA 2023 chat turn with its third-party empathy rating and the turn before it. */
export interface WassaTurn {
  id: string;
  split: 'train' | 'dev';
  convId: number;
  text: string;
  /** The other speaker's turn just before, or '' for the opening turn. */
  previous: string;
  empathy: number;
  words: number;
}

/**
 * WASSA 2023 conversation turns (crowdworkers discussing a news article; each turn rated for
 * perceived empathy by third parties), in conversation order, each with the turn before it.
 * Licence not stated: evaluation and fitting only, never shipped as text.
 */
export function wassaTurns(): WassaTurn[] {
  const rows = readJsonl<{ split: 'train' | 'dev'; conv_id: number; turn_id: number; text: string; empathy: number }>('wassa23-empathic-conversations', 'turns.jsonl');
  rows.sort((a, b) => (a.split < b.split ? -1 : a.split > b.split ? 1 : a.conv_id - b.conv_id || a.turn_id - b.turn_id));
  return rows.map((r, i) => {
    const before = rows[i - 1];
    const previous = before && before.split === r.split && before.conv_id === r.conv_id ? before.text : '';
    return { id: `${r.split}:${r.conv_id}:${r.turn_id}`, split: r.split, convId: r.conv_id, text: r.text, previous, empathy: r.empathy, words: r.text.trim().split(/\s+/).length };
  });
}

/** One AnnoMI therapist utterance with its expert behaviour codes and the client talk just before it. */
export interface AnnomiTurn {
  id: string;
  transcriptId: number;
  quality: 'high' | 'low';
  text: string;
  /** The client utterances since the previous therapist turn, joined. */
  client: string;
  behaviour: string;
  reflection: 'none' | 'simple' | 'complex';
}

/** Every therapist utterance of AnnoMI (motivational-interviewing demonstrations, expert-coded). */
export function annomiTherapistTurns(): AnnomiTurn[] {
  const sessions = readJsonl<{ transcript_id: number; mi_quality: 'high' | 'low'; turns: { u: number; role: string; text: string; behaviour?: string; reflection?: string }[] }>(
    'annomi-mi-quality',
    'sessions.jsonl',
  );
  const out: AnnomiTurn[] = [];
  for (const s of sessions) {
    let client: string[] = [];
    for (const t of s.turns) {
      if (t.role !== 'therapist') {
        client.push(t.text.trim());
        continue;
      }
      out.push({
        id: `${s.transcript_id}:${t.u}`,
        transcriptId: s.transcript_id,
        quality: s.mi_quality,
        text: t.text.trim(),
        client: client.join(' '),
        behaviour: t.behaviour ?? 'other',
        reflection: (t.reflection ?? 'none') as AnnomiTurn['reflection'],
      });
      client = [];
    }
  }
  return out;
}

/** One reply to an opposing view, rated for receptiveness by independent readers (Yeomans et al. 2020, study 1; MIT licence). */
export interface ReceptiveReply {
  id: string;
  text: string;
  seed: string;
  rating: number;
}

/** Yeomans et al. study 1 replies with their mean receptiveness rating (1-7). */
export function receptiveReplies(): ReceptiveReply[] {
  return readJsonl<{ id: string; text: string; seed_text: string; rating_mean: number }>('yeomans-receptiveness-warmth', 'receptiveness_study1.jsonl').map((r) => ({
    id: r.id,
    text: r.text,
    seed: r.seed_text,
    rating: r.rating_mean,
  }));
}

/** Buyers' first offers written after a warm or a tough instruction (Jeong et al. 2019; MIT licence). */
export function warmToughOffers(): { id: string; text: string; warm: boolean }[] {
  return readJsonl<{ id: string; text: string; warm_condition: boolean }>('yeomans-receptiveness-warmth', 'warm_tough_offers.jsonl').map((r) => ({ id: r.id, text: r.text, warm: r.warm_condition }));
}

/** A request or reply email with the annotators' mean ratings (Alipanah et al.; CC BY-NC-SA, evaluation only). */
export interface RatedEmail {
  id: string;
  text: string;
  isRequest: boolean;
  /** 1-5, higher = more indirect. */
  indirectness: number | null;
  /** 1-5, higher = more mitigation and hedging. */
  mitigation: number | null;
}

/** The 480 rated emails; a rating is null where no annotator gave one. */
export function ratedEmails(): RatedEmail[] {
  return readJsonl<{ email_id: number; text: string; is_request: boolean; indirectness_mean: number | null; mitigation_hedging_mean: number | null }>('email-politeness-alipanah', 'emails.jsonl').map((r) => ({
    id: String(r.email_id),
    text: r.text,
    isRequest: r.is_request,
    indirectness: r.indirectness_mean,
    mitigation: r.mitigation_hedging_mean,
  }));
}

/** An unpaired human or machine text of a source never used by a fit (GRiD Reddit Q&A, DetectRL Yelp). */
export interface UnpairedText {
  id: string;
  text: string;
  human: boolean;
  words: number;
}

/** GRiD: human Reddit Q&A answers (AskHistorians, askscience, ELI5, askphilosophy) vs ChatGPT answers. */
export function gridRedditAnswers(): UnpairedText[] {
  return readJsonl<{ id: string; label: string; text: string }>('grid-reddit-chatgpt', 'items.jsonl').map((r) => ({ id: r.id, text: r.text, human: r.label === 'human', words: r.text.trim().split(/\s+/).length }));
}

/** DetectRL Yelp reviews: human vs four generators, with humanising attacks on the machine side. */
export function detectrlYelpReviews(): UnpairedText[] {
  return readJsonl<{ id: string; label: string; text: string }>('detectrl-yelp', 'items.jsonl').map((r) => ({ id: r.id, text: r.text, human: r.label === 'human', words: r.text.trim().split(/\s+/).length }));
}
