import { analyze } from '../../shared/scoring/analyze';
import { measureFormality } from '../../shared/scoring/formality';
import { fastdetectOpenPairs, foldOf, m4Pairs } from '../lib/dev-data';
import { auroc, spearman } from '../lib/stats';
import { loadSquinky } from '../fit/fit-formality';
import { atLeast, info, type EvalRow } from './eval-row';

const DATASET = 'squinky-formality';

/**
 * Spearman rho of measureFormality against the SQUINKY! formality ratings: on every sentence
 * (the bar this dimension is held to) and on fold 0, which the fit never saw.
 * @returns the formality rows of the eval table
 */
export async function evaluate(): Promise<EvalRow[]> {
  const rows = loadSquinky();
  const measured = rows.map((r) => measureFormality(analyze(r.text)).value);
  const truth = rows.map((r) => r.y);
  const held = rows.map((r, i) => (foldOf(r.id) === 0 ? i : -1)).filter((i) => i >= 0);
  return [
    ...outOfSource(),
    atLeast('in-domain Spearman formality', `${DATASET} all`, rows.length, spearman(measured, truth), 0.6),
    info('in-domain Spearman formality', `${DATASET} fold 0 (held back from fit)`, held.length, spearman(held.map((i) => measured[i]), held.map((i) => truth[i]))),
  ];
}

/** Genres of human text by register: encyclopaedic, scientific and news prose vs forum answers and amateur stories. */
const FORMAL_GENRES = new Set(['arxiv', 'wikipedia', 'squad', 'xsum']);
const INFORMAL_GENRES = new Set(['reddit', 'writing']);

/**
 * Out of source (no formality labels outside SQUINKY! in dev): the human side of the provenance
 * sets, formal genres against informal ones; formality should rank the former higher.
 * @returns the out-of-source row
 */
function outOfSource(): EvalRow[] {
  const texts = [...m4Pairs(), ...fastdetectOpenPairs()].filter((p) => FORMAL_GENRES.has(p.domain) || INFORMAL_GENRES.has(p.domain));
  const values = texts.map((p) => measureFormality(analyze(p.human)).value);
  return [info('OOD AUROC formality, formal vs informal genre', 'm4 + fastdetect-open human texts (unused source)', texts.length, auroc(values, texts.map((p) => FORMAL_GENRES.has(p.domain))))];
}
