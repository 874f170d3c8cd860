/** Average ranks (ties share their mean rank), 1-based. */
export function ranks(xs: readonly number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k][1]] = avg;
    i = j + 1;
  }
  return r;
}

/** Pearson correlation. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= n; my /= n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy);
}

/** Spearman rank correlation. */
export function spearman(x: readonly number[], y: readonly number[]): number {
  return pearson(ranks(x), ranks(y));
}

/**
 * Area under the ROC curve: the probability that a random positive scores above a random
 * negative (ties count half), computed from ranks.
 */
export function auroc(scores: readonly number[], positive: readonly boolean[]): number {
  const r = ranks(scores);
  let nPos = 0, sumPos = 0;
  for (let i = 0; i < r.length; i++) if (positive[i]) { nPos++; sumPos += r[i]; }
  const nNeg = r.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (sumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Macro-averaged F1 over the classes present in truth or prediction. */
export function macroF1(truth: readonly number[], pred: readonly number[]): number {
  const classes = [...new Set([...truth, ...pred])].sort();
  let total = 0;
  for (const c of classes) {
    let tp = 0, fp = 0, fn = 0;
    for (let i = 0; i < truth.length; i++) {
      if (pred[i] === c && truth[i] === c) tp++;
      else if (pred[i] === c) fp++;
      else if (truth[i] === c) fn++;
    }
    total += tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
  }
  return total / classes.length;
}
