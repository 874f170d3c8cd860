import { unsupportedLanguageOf } from '../../shared/scoring/language';
import { loadWikipediaPoliteness } from '../fit/fit-directness';
import { loadSquinky } from '../fit/fit-formality';
import { humanLikenessTexts } from '../fit/fit-human-likeness';
import { esconvReplies, readCsv } from '../lib/dev-data';
import { atMost, type EvalRow } from './eval-row';

/**
 * English refused as "unsupported_language": every dev text is English, so any refusal is a false
 * one. Casual chat (ESConv, Reddit) is where a detector errs, so each source gets its own row.
 * @returns one row per source
 */
export async function evaluate(): Promise<EvalRow[]> {
  const sources: [string, string[]][] = [
    ['esconv-failed replies', esconvReplies().map((r) => r.reply)],
    ['epitome responses', readCsv('epitome', 'epitome_merged.csv').map((r) => r.response_post)],
    ['squinky-formality sentences', loadSquinky().map((r) => r.text)],
    ['stanford-politeness wikipedia', loadWikipediaPoliteness().map((r) => r.text)],
    ['human-likeness dev texts (both sides)', humanLikenessTexts().map((t) => t.text)],
  ];
  return sources.map(([name, texts]) => {
    const refused = texts.filter((t) => unsupportedLanguageOf(t) !== undefined);
    // The Wikipedia requests include a dozen in Dutch, Tagalog, Croatian...: refusing those is right.
    return atMost('OOD share of dev texts refused as unsupported_language', name, texts.length, refused.length / texts.length, 0.01);
  });
}
