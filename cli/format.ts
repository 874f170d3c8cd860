import type { ScoreResult } from '../shared/scoring';

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39] } as const;

/** Wraps text in an ANSI style when color is on. */
export function paint(on: boolean, style: keyof typeof CODES, text: string): string {
  if (!on) return text;
  const [open, close] = CODES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function fixed(x: number | undefined, digits = 2): string {
  return x === undefined ? '-' : x.toFixed(digits);
}

/**
 * Renders a score as a small table for people (the --json flag gives the machine form).
 * @param r - the engine result
 * @param color - whether to use ANSI colors
 */
export function renderScore(r: ScoreResult, color: boolean): string {
  const out: string[] = [];
  const res = r.result;
  if (res) {
    const verdict = res.passed ? paint(color, 'green', 'PASS') : paint(color, 'red', 'FAIL');
    out.push(`${paint(color, 'bold', res.profile)}  EQ score ${paint(color, 'bold', String(res.eq_score))}/100  ${verdict}`);
  }
  out.push(`human-likeness ${r.human_likeness.toFixed(1)}/100   scorer ${paint(color, 'dim', r.scorer_version)}`);
  out.push('');
  out.push(`${pad('dimension', 12)} ${pad('measured', 9)} ${pad('target', 7)} ${pad('delta', 7)} fit`);
  for (const dim of ['empathy', 'formality', 'directness', 'hesitation'] as const) {
    const d = res?.dimensions[dim];
    const measured = d ? d.measured : r.measures[dim];
    const fit = d ? (d.fit >= 0.4 ? fixed(d.fit) : paint(color, 'red', fixed(d.fit))) : '-';
    out.push(`${pad(dim, 12)} ${pad(fixed(measured), 9)} ${pad(fixed(d?.target), 7)} ${pad(d ? (d.delta >= 0 ? '+' : '') + fixed(d.delta) : '-', 7)} ${fit}`);
  }
  const t = res?.dimensions.timing;
  if (t) {
    const fit = t.superhuman ? paint(color, 'red', 'superhuman') : fixed(t.fit);
    out.push(`${pad('timing', 12)} ${pad(`${t.measured}s`, 9)} ${pad(`${t.expected}s`, 7)} ${pad(`${t.window[0]}-${t.window[1]}s`, 7)} ${fit}`);
  }
  const signals = res?.signals ?? r.signals;
  if (signals.length) {
    out.push('');
    out.push(paint(color, 'yellow', 'machine-like signals'));
    for (const s of signals) {
      const where = s.spans[0] ? ` "${s.spans[0].text.slice(0, 50)}" @${s.spans[0].start}` : '';
      out.push(`  ${s.hard_fail ? paint(color, 'red', 'HARD ') : ''}${s.id} x${s.count} (-${s.penalty})${where}`);
    }
  }
  if (res) {
    out.push('');
    out.push(`${paint(color, 'bold', 'prompt addition:')} ${res.advice.suggested_prompt_addition}`);
    out.push(`${paint(color, 'bold', 'improvement:')} ${res.advice.improvement}`);
    for (const step of res.advice.rewrite_guidance ?? []) {
      out.push(`  ${step.priority}. [+${step.expected_gain}] ${step.action}${step.spans[0] ? ` ("${step.spans[0].text.slice(0, 40)}")` : ''}`);
      out.push(`     e.g. ${step.example}`);
    }
  }
  if (r.profiles) {
    out.push('');
    out.push(paint(color, 'bold', 'all profiles (best first)'));
    for (const p of r.profiles) out.push(`  ${pad(p.profile, 30)} ${pad(String(p.eq_score), 4)} ${p.passed ? 'pass' : ''}`);
  }
  return out.join('\n') + '\n';
}
