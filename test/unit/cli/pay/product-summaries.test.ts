import { expect } from 'chai';
import { presentLeg } from '../../../../api/duel/present-duel';
import { scoreInputFrom } from '../../../../api/http/score-input';
import type { ProgressReport } from '../../../../jobs';
import { renderPaidAnswer } from '../../../../cli/pay/render-answer';
import { scoreText } from '../../../../shared/scoring';

const ok = (product: string, body: unknown, outFile?: string) => renderPaidAnswer({ status: 200, body, replayed: false }, { product, outFile }).trimEnd().split('\n');

describe('humanlike pay summaries', function () {
  this.timeout(20_000);

  const score = scoreText(scoreInputFrom({ proposed_text: 'Oh no. That is a lot. Want me to call you tonight?', response_delay_seconds: 40, target_profile: 'grief-support-peer' }));
  const leg = presentLeg(score, 'leg-1') as { score: { eq_score: number; passed: boolean; human_likeness: number; suggested_prompt_addition: string }; improvement: string };

  it('summarizes an opened duel: its id, the leg, where to challenge, and the fee', function () {
    const body = {
      marker: 'DUEL_CREATED',
      duel_id: 'd-1',
      status: 'open',
      role: 'challenger',
      challenge_url: 'http://localhost:3000/api/duel/d-1',
      prompt_id: 'late-refund',
      target_profile: 'grief-support-peer',
      share_answer: false,
      expires_at: '2026-12-03T00:00:00.000Z',
      leg,
      fee: { failures: 2, multiplier: 2 },
      result_id: 'r-1',
      referral_code: 'HL-1',
    };
    const lines = ok('duel', body);
    expect(lines[0]).to.equal('Duel d-1 opened on prompt late-refund against grief-support-peer; open until 2026-12-03T00:00:00.000Z');
    expect(lines[1]).to.equal(`Your leg: EQ score ${leg.score.eq_score} (${leg.score.passed ? 'passed' : 'not passed'}); human-likeness ${leg.score.human_likeness}`);
    expect(lines[2]).to.equal('Challenge another bot: http://localhost:3000/api/duel/d-1 (it posts the same prompt_id and target_profile with "duel_id": "d-1")');
    expect(lines).to.include('Fee: x2 of the base price (2 failed scored sessions in your recent run)');
    expect(lines.at(-1)).to.equal('Result id: r-1; your referral code: HL-1');
  });

  it('summarizes a resolved duel from the side of the bot that paid: won, lost or a draw, and the shared breakdown', function () {
    const base = {
      duel_id: 'd-2',
      status: 'resolved',
      prompt_id: 'late-refund',
      target_profile: 'grief-support-peer',
      challenger: { wallet: '0xAbC1…9f3E', eq_score: 61, passed: false },
      opponent: { wallet: '0x1234…abcd', eq_score: 74, passed: true },
      outcome: 'opponent',
      shared: true,
      breakdown: [{ dimension: 'empathy', target: 0.8, challenger: { measured: 0.5, fit: 0.4 }, opponent: { measured: 0.75, fit: 0.9 }, closer: 'opponent' }],
      leg,
      fee: { failures: 0, multiplier: 1 },
    };
    expect(ok('duel', { ...base, role: 'opponent' })[0]).to.equal('Duel d-2 on prompt late-refund against grief-support-peer: you won (challenger 61, opponent 74)');
    expect(ok('duel', { ...base, role: 'challenger' })[0]).to.match(/: you lost \(/);
    expect(ok('duel', { ...base, role: 'opponent', outcome: 'draw' })[0]).to.match(/: a draw \(/);
    expect(ok('duel', { ...base, role: 'opponent' })).to.include('  empathy: target 0.8; challenger 0.5, opponent 0.75; closer: opponent');
  });

  it('summarizes a progress report: sessions, trend, streak and percentile, gaps, drift and the latest sessions', function () {
    const report: ProgressReport = {
      empty: false,
      sessions: { total: 7, in_report: 7, window: 50 },
      main_profile: 'grief-support-peer',
      history: Array.from({ length: 7 }, (_, i) => ({ settled_at: `2026-01-0${i + 1}T00:00:00Z`, product: 'simulate', profile: 'grief-support-peer', eq_score: 50 + i * 5, passed: 50 + i * 5 >= 70 })),
      history_limit: 50,
      trend: { direction: 'improving', slope_per_session: 5, first_average: 55, last_average: 75, compared: 3 },
      pass_streak: { current: 3, best: 3 },
      percentile: { profile: 'grief-support-peer', value: 80, other_bots: 4, basis: 'best score' },
      dimension_gaps: { empathy: { mean_gap: -0.12, mean_abs_gap: 0.12, sessions: 7 }, formality: { mean_gap: 0.05, mean_abs_gap: 0.05, sessions: 7 } },
      style_drift: {
        basis: 'frozen targets',
        sessions_checked: 7,
        sessions_without_targets: 0,
        consistent_sessions: 5,
        consistency_rate: 0.714,
        per_dimension: {},
        drifting_dimensions: ['empathy'],
      },
      not_a_factual_accuracy_check: '...',
      improvement: 'Raise empathy.',
    };
    const lines = ok('progress', { result_id: 'r-3', ...report, referral_code: 'HL-3' });
    expect(lines.slice(0, 6)).to.deep.equal([
      '7 scored sessions (7 in this report); main profile grief-support-peer',
      'Trend: improving, +5 EQ per session (average 55 -> 75 over 3 sessions)',
      'Pass streak: 3 now, best 3; percentile 80 on grief-support-peer among 4 other bots',
      'Dimension gaps (measured - target, on grief-support-peer): empathy -0.12, formality +0.05',
      'Style: 5 of 7 sessions within every target band; drifting: empathy',
      'Latest 5 (oldest first):',
    ]);
    expect(lines[6]).to.equal('  2026-01-03 simulate grief-support-peer 60 not passed');
    expect(lines.slice(-2)).to.deep.equal(['Raise empathy.', 'Result id: r-3; your referral code: HL-3']);
    const empty = ok('progress', { ...report, empty: true, improvement: 'Run a session first.' });
    expect(empty[0]).to.equal("No scored session on this wallet's ledger yet.");
  });

  it('puts a secret shown once on its own line with the header it goes in, and says so when it is withheld', function () {
    const room = { room_id: 'room-1', room_url: '/api/roleplay/room-1', profile: 'grief-support-peer', open_to_any_partner: true, state: 'open', chair: 'opener', expires_at: '2026-12-04T00:00:00.000Z' };
    expect(ok('roleplay', { ...room, session_secret: 'rps_abc', secret_note: 'shown once' })[1]).to.equal(
      'Session secret (shown this once, keep it secret; send it in X-ROLEPLAY-SECRET): rps_abc',
    );
    expect(ok('roleplay', { ...room, session_secret: null, secret_note: 'Claim it with the same payment.' })[1]).to.equal('Session secret: not in this answer. Claim it with the same payment.');
    const bundle = ok('bundle', { bundle_id: 'b-1', bundle_token: 'hlb_xyz', plan: 'bundle', credits: 1000, credits_remaining: 1000, wallet: '0xAbC1…9f3E' });
    expect(bundle).to.deep.equal([
      'Bundle b-1 (bundle): 1000 of 1000 basic credits for wallet 0xAbC1…9f3E',
      'Bundle token (shown this once, keep it secret; send it in X-BUNDLE-TOKEN on a basic POST /api/simulate): hlb_xyz',
    ]);
    const coaching = ok('coaching', {
      enrollment_id: 'e-1',
      pack_id: 'support-basics',
      pack_name: 'Support basics',
      attempts: 18,
      attempts_left: 18,
      secret: 'hlc_1',
      drills: [{ drill_id: 'd1', title: 'Late refund', target_profile: 'grief-support-peer', profile_name: 'Grief support peer', bar: 70 }],
      certificate_rule: 'Clear every bar.',
      progress_path: '/api/coaching/e-1',
    });
    expect(coaching[1]).to.equal('Drill secret (shown this once, keep it secret; send it in X-COACHING-SECRET): hlc_1');
    expect(coaching[3]).to.equal('  d1: Late refund (Grief support peer), bar 70');
  });

  it('summarizes a training dataset, JSON or JSON Lines, and says where --out wrote it', function () {
    const manifest = { result_id: 'r-4', format: 'humanlike.training-dataset.v1', records: 2, include_text: false, improvement: 'Fine-tune on passed lines.' };
    const json = ok('training-dataset', { ...manifest, sessions: [{}, {}] });
    expect(json.slice(0, 2)).to.deep.equal([
      'Training dataset (humanlike.training-dataset.v1): 2 session records, metrics only',
      'Save it with --out FILE (JSON Lines), or print the whole document with --json',
    ]);
    const jsonl = `${JSON.stringify({ record_type: 'manifest', ...manifest })}\n{"record_type":"session"}\n{"record_type":"session"}\n{"record_type":"end","records":2}\n`;
    expect(ok('training-dataset', jsonl, 'out.jsonl')[1]).to.equal('Written to out.jsonl as JSON Lines: a manifest line, 2 session lines, an end line');
  });

  it('shows an answer of a shape it does not know as it came, rather than failing', function () {
    expect(ok('duel', { surprise: true })).to.deep.equal(['{', '  "surprise": true', '}']);
  });
});
