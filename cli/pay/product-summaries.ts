// A short summary per paid product, for a person reading a terminal. Answers are read loosely: the
// server's schemas own the shapes, and a member this client does not know is left out of the
// summary (`--json` and `--out` give the whole answer).

/** A 200 body as the summaries read it. */
export type AnswerBody = Record<string, any>;

/** What a summary knows besides the body. */
export interface SummaryContext {
  /** Where `--out` wrote the answer, if it did. */
  outFile?: string;
}

const verdict = (score: AnswerBody) => `${score.eq_score} (${score.passed ? 'passed' : 'not passed'})`;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;

function scriptCheck(body: AnswerBody): string[] {
  const lines = [
    // The response's method_note says it at length; one line here.
    `Adherence ${body.adherence_score} (${body.on_script} of ${body.claims_checked} claims on script; string and number matching, not a factual-accuracy check)`,
  ];
  for (const c of body.claims as AnswerBody[]) {
    const approved = !c.on_script && c.approved_alternatives.length > 0 ? ` (approved: ${c.approved_alternatives.map((a: string) => JSON.stringify(a)).join(', ')})` : '';
    lines.push(`  ${c.on_script ? 'on ' : 'off'} ${c.kind} ${JSON.stringify(c.text)} at ${c.start}-${c.end}${approved}`);
  }
  lines.push(`Next step: ${body.improvement}`);
  return lines;
}

function stressTest(body: AnswerBody): string[] {
  const matchups = (list: AnswerBody[]) => list.map((p) => `${p.profile} ${p.eq_score}`).join(', ');
  const lines = [
    `Passes ${body.passed_count} of ${body.profile_count} profiles; mean EQ score ${body.mean_eq_score}; human-likeness ${body.human_likeness}`,
    `Strongest: ${matchups(body.strongest)}`,
    `Weakest:   ${matchups(body.weakest)}`,
  ];
  for (const fix of body.prompt_fixes as AnswerBody[]) {
    const gaps = (fix.main_gaps as AnswerBody[]).map((g) => `${g.direction} ${g.dimension} (-${g.points_lost})`).join(', ');
    lines.push(`Fix for ${fix.profile} (${fix.eq_score}): ${fix.suggested_prompt_addition}${gaps ? ` Gaps: ${gaps}.` : ''}`);
  }
  lines.push(String(body.improvement));
  return lines;
}

function rewrite(body: AnswerBody): string[] {
  return [
    `EQ score ${verdict(body.before)} -> ${verdict(body.after)} against ${body.target_profile}; ${body.changed ? `${(body.edits as unknown[]).length} edits` : 'no edit raised the score'}`,
    `Rewritten: ${body.rewritten_text}`,
    String(body.improvement),
  ];
}

function session(body: AnswerBody): string[] {
  const lines = [
    `EQ score ${verdict(body.score)} against ${body.target_profile}; human-likeness ${body.score.human_likeness}`,
    `Add to the system prompt: ${body.score.suggested_prompt_addition}`,
    String(body.improvement),
  ];
  if (Array.isArray(body.rewrite_guidance)) {
    for (const step of body.rewrite_guidance) lines.push(`  ${step.priority}. ${step.action}`);
  }
  return lines;
}

function duelFee(fee: AnswerBody | undefined): string {
  if (!fee) return '';
  const failures = `${fee.failures} failed scored session${fee.failures === 1 ? '' : 's'} in your recent run`;
  return `Fee: x${fee.multiplier} of the base price (${failures})`;
}

function duel(body: AnswerBody): string[] {
  const leg = body.leg as AnswerBody;
  const yours = `Your leg: EQ score ${verdict(leg.score)}; human-likeness ${leg.score.human_likeness}`;
  const advice = [`Add to the system prompt: ${leg.score.suggested_prompt_addition}`, String(leg.improvement), duelFee(body.fee)].filter(Boolean);
  if (body.marker === 'DUEL_CREATED') {
    return [
      `Duel ${body.duel_id} opened on prompt ${body.prompt_id} against ${body.target_profile}; open until ${body.expires_at}`,
      yours,
      `Challenge another bot: ${body.challenge_url} (it posts the same prompt_id and target_profile with "duel_id": "${body.duel_id}")`,
      ...advice,
    ];
  }
  const you = body.role === 'challenger' ? 'challenger' : 'opponent';
  const outcome = body.outcome === 'draw' ? 'a draw' : body.outcome === you ? 'you won' : body.outcome ? 'you lost' : `status ${body.status}`;
  const lines = [
    `Duel ${body.duel_id} on prompt ${body.prompt_id} against ${body.target_profile}: ${outcome} (challenger ${body.challenger?.eq_score ?? '-'}, opponent ${body.opponent?.eq_score ?? '-'})`,
    yours,
  ];
  if (Array.isArray(body.breakdown)) {
    for (const d of body.breakdown as AnswerBody[]) {
      lines.push(`  ${d.dimension}: target ${d.target}; challenger ${d.challenger.measured}, opponent ${d.opponent.measured}; closer: ${d.closer}`);
    }
  }
  return [...lines, ...advice];
}

function progress(body: AnswerBody): string[] {
  if (body.empty) return [`No scored session on this wallet's ledger yet.`, String(body.improvement)];
  const lines = [`${body.sessions.total} scored sessions (${body.sessions.in_report} in this report); main profile ${body.main_profile}`];
  const t = body.trend as AnswerBody | null;
  lines.push(
    t
      ? `Trend: ${t.direction}, ${signed(t.slope_per_session)} EQ per session (average ${t.first_average} -> ${t.last_average} over ${t.compared} sessions)`
      : 'Trend: not enough scored sessions yet',
  );
  const p = body.percentile as AnswerBody | null;
  const percentile = p && p.value !== null ? `; percentile ${p.value} on ${p.profile} among ${p.other_bots} other bots` : '';
  lines.push(`Pass streak: ${body.pass_streak.current} now, best ${body.pass_streak.best}${percentile}`);
  const gaps = Object.entries(body.dimension_gaps as Record<string, AnswerBody>);
  if (gaps.length > 0) lines.push(`Dimension gaps (measured - target, on ${body.main_profile}): ${gaps.map(([dim, g]) => `${dim} ${signed(g.mean_gap)}`).join(', ')}`);
  const drift = body.style_drift as AnswerBody;
  if (drift.sessions_checked > 0) {
    const drifting = drift.drifting_dimensions.length > 0 ? `; drifting: ${drift.drifting_dimensions.join(', ')}` : '';
    lines.push(`Style: ${drift.consistent_sessions} of ${drift.sessions_checked} sessions within every target band${drifting}`);
  }
  const recent = (body.history as AnswerBody[]).slice(-5);
  if (recent.length > 0) {
    lines.push(`Latest ${recent.length} (oldest first):`);
    for (const s of recent) lines.push(`  ${String(s.settled_at).slice(0, 10)} ${s.product} ${s.profile ?? '-'} ${s.eq_score}${s.passed === null ? '' : s.passed ? ' passed' : ' not passed'}`);
  }
  if (body.charts?.trend_svg) lines.push('Charts: the trend and the dimension gaps as SVG in charts (save the answer with --out FILE)');
  lines.push(String(body.improvement));
  return lines;
}

// A secret shown once must stand out, and say where it goes.
function secretLine(name: string, secret: unknown, header: string, note: unknown): string {
  return typeof secret === 'string' && secret
    ? `${name} (shown this once, keep it secret; send it in ${header}): ${secret}`
    : `${name}: not in this answer. ${String(note ?? '')}`.trimEnd();
}

function roleplay(body: AnswerBody): string[] {
  return [
    `Role-play room ${body.room_id} (${body.room_url}): profile ${body.profile ?? 'any'}, ${body.open_to_any_partner ? 'open to any partner' : 'partner by invitation'}; state ${body.state}${body.expires_at ? `, expires ${body.expires_at}` : ''}; you sit in the ${body.chair}'s chair`,
    secretLine('Session secret', body.session_secret, 'X-ROLEPLAY-SECRET', body.secret_note),
  ];
}

function coaching(body: AnswerBody): string[] {
  const lines = [
    `Coaching pack ${body.pack_name} (${body.pack_id}): ${body.attempts_left} of ${body.attempts} attempts left; enrollment ${body.enrollment_id}, progress at ${body.progress_path}`,
    secretLine('Drill secret', body.secret, 'X-COACHING-SECRET', body.secret_note),
    'Drills:',
  ];
  for (const d of body.drills as AnswerBody[]) lines.push(`  ${d.drill_id}: ${d.title} (${d.profile_name}), bar ${d.bar}`);
  lines.push(`Certificate: ${body.certificate_rule}`);
  return lines;
}

function bundle(body: AnswerBody): string[] {
  return [
    `Bundle ${body.bundle_id} (${body.plan}): ${body.credits_remaining} of ${body.credits} basic credits for wallet ${body.wallet}`,
    secretLine('Bundle token', body.bundle_token, 'X-BUNDLE-TOKEN on a basic POST /api/simulate', body.token_note),
  ];
}

function trainingDataset(body: AnswerBody | string, context: SummaryContext): string[] {
  // JSON Lines (what --out asks for): the manifest is the first line.
  const manifest = typeof body === 'string' ? (JSON.parse(body.slice(0, body.indexOf('\n'))) as AnswerBody) : body;
  const lines = [
    `Training dataset (${manifest.format}): ${manifest.records} session records, ${manifest.include_text ? 'with the stored texts' : 'metrics only'}`,
    context.outFile
      ? `Written to ${context.outFile} as JSON Lines: a manifest line, ${manifest.records} session lines, an end line`
      : 'Save it with --out FILE (JSON Lines), or print the whole document with --json',
    String(manifest.improvement),
  ];
  return lines;
}

/** A product's summary: the lines to print for its 200 body. */
export type ProductSummary = (body: AnswerBody, context: SummaryContext) => string[];

/** The summary of each paid product, by catalog id. */
export const PRODUCT_SUMMARIES: Readonly<Record<string, ProductSummary>> = {
  simulate: session,
  duel,
  progress,
  'stress-test': stressTest,
  'training-dataset': trainingDataset,
  rewrite,
  'script-check': scriptCheck,
  roleplay,
  coaching,
  bundle,
};
