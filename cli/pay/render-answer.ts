import type { PaidSessionOutcome } from './pay-for-session';

// Answers are read loosely: the server's schemas own the shapes, and a member this client does not
// know is shown as it came rather than refused.
type Body = Record<string, any>;

function renderScriptCheck(body: Body): string[] {
  const lines = [
    // The response's method_note says it at length; one line here.
    `Adherence ${body.adherence_score} (${body.on_script} of ${body.claims_checked} claims on script; string and number matching, not a factual-accuracy check)`,
  ];
  for (const c of body.claims as Body[]) {
    const approved = !c.on_script && c.approved_alternatives.length > 0 ? ` (approved: ${c.approved_alternatives.map((a: string) => JSON.stringify(a)).join(', ')})` : '';
    lines.push(`  ${c.on_script ? 'on ' : 'off'} ${c.kind} ${JSON.stringify(c.text)} at ${c.start}-${c.end}${approved}`);
  }
  lines.push(`Next step: ${body.improvement}`);
  return lines;
}

function renderStressTest(body: Body): string[] {
  const matchups = (list: Body[]) => list.map((p) => `${p.profile} ${p.eq_score}`).join(', ');
  const lines = [
    `Passes ${body.passed_count} of ${body.profile_count} profiles; mean EQ score ${body.mean_eq_score}; human-likeness ${body.human_likeness}`,
    `Strongest: ${matchups(body.strongest)}`,
    `Weakest:   ${matchups(body.weakest)}`,
  ];
  for (const fix of body.prompt_fixes as Body[]) {
    const gaps = (fix.main_gaps as Body[]).map((g) => `${g.direction} ${g.dimension} (-${g.points_lost})`).join(', ');
    lines.push(`Fix for ${fix.profile} (${fix.eq_score}): ${fix.suggested_prompt_addition}${gaps ? ` Gaps: ${gaps}.` : ''}`);
  }
  lines.push(String(body.improvement));
  return lines;
}

function renderRewrite(body: Body): string[] {
  const verdict = (score: Body) => `${score.eq_score} (${score.passed ? 'passed' : 'not passed'})`;
  return [
    `EQ score ${verdict(body.before)} -> ${verdict(body.after)} against ${body.target_profile}; ${body.changed ? `${(body.edits as unknown[]).length} edits` : 'no edit raised the score'}`,
    `Rewritten: ${body.rewritten_text}`,
    String(body.improvement),
  ];
}

function renderSession(body: Body): string[] {
  const lines = [
    `EQ score ${body.score.eq_score} (${body.score.passed ? 'passed' : 'not passed'}) against ${body.target_profile}; human-likeness ${body.score.human_likeness}`,
    `Add to the system prompt: ${body.score.suggested_prompt_addition}`,
    String(body.improvement),
  ];
  if (Array.isArray(body.rewrite_guidance)) {
    for (const step of body.rewrite_guidance) lines.push(`  ${step.priority}. ${step.action}`);
  }
  return lines;
}

/** Whether a 200 body is a weakness map (a stress test's answer). */
function isWeaknessMap(body: Body): boolean {
  return Array.isArray(body.prompt_fixes) && Array.isArray(body.strongest) && typeof body.profile_count === 'number';
}

/**
 * Renders the answer of a paid call for a person: a layout per product where one exists (a scored
 * session, a script check, a stress test, a rewrite), the JSON otherwise, then what was signed and the
 * decoded receipt.
 * @param outcome - the paid call's final answer
 * @returns the text to print, ending in a newline
 */
export function renderPaidAnswer(outcome: PaidSessionOutcome): string {
  const lines: string[] = [];
  const body = outcome.body as Body | string | null;
  const replayed = outcome.replayed ? ' (replayed delivery)' : '';
  if (outcome.status !== 200) {
    lines.push(`HTTP ${outcome.status}: ${JSON.stringify(body)}`);
  } else if (typeof body === 'string') {
    // A body that is not one JSON document (the training dataset's JSON Lines): as the server sent it.
    lines.push(body.replace(/\n$/, ''));
  } else if (body === null || typeof body !== 'object') {
    lines.push(JSON.stringify(body));
  } else if (body.method === 'string_and_number_matching' && Array.isArray(body.claims)) {
    lines.push(...renderScriptCheck(body), `Result id: ${body.result_id}; your referral code: ${body.referral_code}${replayed}`);
  } else if (isWeaknessMap(body)) {
    lines.push(...renderStressTest(body), `Result id: ${body.result_id}; your referral code: ${body.referral_code}${replayed}`);
  } else if (typeof body.rewritten_text === 'string' && body.before && body.after) {
    lines.push(...renderRewrite(body), `Result id: ${body.result_id}; your referral code: ${body.referral_code}${replayed}`);
  } else if (body.score && typeof body.score === 'object') {
    lines.push(...renderSession(body), `Result id: ${body.result_id}; your referral code: ${body.referral_code}${replayed}`);
  } else {
    // A product this client has no layout for: its answer as it came.
    lines.push(JSON.stringify(body, null, 2));
  }
  if (outcome.paid) lines.push(`Signed: ${outcome.paid.amount} units of ${outcome.paid.asset} on ${outcome.paid.network} to ${outcome.paid.payTo}`);
  if (outcome.receipt) lines.push(`Receipt: ${JSON.stringify(outcome.receipt)}`);
  return `${lines.join('\n')}\n`;
}
