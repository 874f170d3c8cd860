import { analyze } from '../../shared/scoring/analyze';
import { measureHesitation } from '../../shared/scoring/hesitation';
import { foldOf, ratedEmails, readJsonl } from '../lib/dev-data';
import { auroc, spearman } from '../lib/stats';
import { atLeast, info, type EvalRow } from './eval-row';

interface SzegedSentence {
  doc_id: string;
  part: string;
  text: string;
  uncertain: boolean;
  split: string;
}

const DATASET = 'szeged-uncertainty-wiki dev';

/**
 * Hesitation on the Szeged uncertainty corpus (Wikipedia, dev documents only): AUROC of the
 * measured value for uncertain vs certain sentences. Article titles are left out (3,193 of them, 3
 * uncertain): they are one- to four-word names, and scoring them only inflates the negatives.
 * @returns the target row, a row with titles kept, and the fold-0 row
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows = readJsonl<SzegedSentence>('szeged-uncertainty-wiki', 'sentences.jsonl').filter((r) => r.split === 'dev');
  const scored = rows.map((r) => ({ part: r.part, fold: foldOf(r.doc_id), uncertain: r.uncertain, value: measureHesitation(analyze(r.text)).value }));
  const text = scored.filter((r) => r.part !== 'Title');
  const fold0 = text.filter((r) => r.fold === 0);
  const score = (xs: typeof scored) => auroc(xs.map((r) => r.value), xs.map((r) => r.uncertain));
  const emails = ratedEmails().filter((e) => e.mitigation !== null);
  return [
    atLeast(
      'OOD Spearman hesitation vs rated mitigation',
      'email-politeness-alipanah, mitigation and hedging',
      emails.length,
      spearman(emails.map((e) => measureHesitation(analyze(e.text)).value), emails.map((e) => e.mitigation ?? 0)),
      0.35,
    ),
    atLeast('in-domain AUROC hesitation (uncertain vs certain)', `${DATASET}, text sentences`, text.length, score(text), 0.75),
    info('AUROC hesitation, titles included', `${DATASET}, all sentences`, scored.length, score(scored)),
    info('AUROC hesitation, fold 0', `${DATASET}, text sentences, fold 0`, fold0.length, score(fold0)),
  ];
}
