import type { DataSource } from 'typeorm';
import { spearman } from '../../../shared/agreement/spearman';
import { MIN_PEOPLE, suppressedCount } from '../../../shared/agreement/suppression';
import { SCALES, type Scale } from '../rating-scales';

const round = (x: number | null, places = 3) => (x === null ? null : Math.round(x * 10 ** places) / 10 ** places);

/** What each figure of the pilot evidence means; published with the figures. */
export const PILOT_EVIDENCE_DEFINITIONS = Object.freeze({
  suppression: `Every figure resting on fewer than ${MIN_PEOPLE} distinct participants is null, and its block says suppressed. No free text (replies, comments, briefs) is ever part of this report.`,
  participants: 'Per sponsor: distinct participants who started a conversation with its agent.',
  delay: "Median delay before a participant's reply (ms), from the agent's previous turn (or the start) to the reply's arrival.",
  ratings: "Participants' ratings of the agent's turns on the four scales (1 to 5); means over every rating.",
  agreement:
    "Spearman's rho between the engine's value of each rated agent turn and the participant's rating, per scale, over ratings of participants who hold the model consent (the others never enter any comparison with the scorer); its own suppression counts those participants.",
  identity_flags: 'Agent turns that named the sponsor or one of its domains (hidden from the participant).',
});

interface SponsorRow {
  sponsor_id: string;
  name: string;
  participants: number;
  offered: number;
  declined: number;
  expired: number;
  started: number;
  stopped: number;
  replies: number;
  median_delay_ms: number | null;
  identity_flags: number;
  ratings: number;
  raters: number;
  mean_human: number | null;
  mean_warm: number | null;
  mean_direct: number | null;
  mean_hesitant: number | null;
}

/**
 * The pilot's aggregates for operators: participants, conversations, ratings and agreement with
 * the engine per sponsor, with small counts suppressed and no free text.
 * @param ds - DataSource
 * @returns the evidence body
 */
export async function loadPilotEvidence(ds: DataSource) {
  const [totals] = (await ds.query(
    `SELECT count(*)::int AS enrolled,
            count(*) FILTER (WHERE state = 'active')::int AS active,
            count(*) FILTER (WHERE state = 'paused')::int AS paused,
            count(*) FILTER (WHERE model_consent_at IS NOT NULL)::int AS model_consent,
            coalesce((SELECT erased FROM pilot_erasures WHERE id = 1), 0)::int AS erased
       FROM pilot_participants`,
  )) as Array<Record<string, number>>;
  const rows = (await ds.query(
    `SELECT s.id::text AS sponsor_id, s.name,
            (SELECT count(DISTINCT i.participant_id)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.started_at IS NOT NULL) AS participants,
            (SELECT count(*)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id) AS offered,
            (SELECT count(*)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.state = 'declined') AS declined,
            (SELECT count(*)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.state = 'expired') AS expired,
            (SELECT count(*)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.started_at IS NOT NULL) AS started,
            (SELECT count(*)::int FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.state = 'stopped') AS stopped,
            (SELECT count(*)::int FROM pilot_turns t JOIN pilot_invitations i ON i.id = t.invitation_id WHERE i.sponsor_id = s.id AND t.role = 'participant') AS replies,
            (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t.delay_ms) FROM pilot_turns t JOIN pilot_invitations i ON i.id = t.invitation_id
              WHERE i.sponsor_id = s.id AND t.role = 'participant') AS median_delay_ms,
            (SELECT count(*)::int FROM pilot_turns t JOIN pilot_invitations i ON i.id = t.invitation_id WHERE i.sponsor_id = s.id AND t.identity_flag) AS identity_flags,
            f.ratings, f.raters, f.mean_human, f.mean_warm, f.mean_direct, f.mean_hesitant
       FROM pilot_sponsors s
       LEFT JOIN LATERAL (
         SELECT count(*)::int AS ratings, count(DISTINCT fb.participant_id)::int AS raters,
                avg(fb.human)::float8 AS mean_human, avg(fb.warm)::float8 AS mean_warm, avg(fb.direct)::float8 AS mean_direct, avg(fb.hesitant)::float8 AS mean_hesitant
           FROM pilot_feedback fb JOIN pilot_invitations i ON i.id = fb.invitation_id WHERE i.sponsor_id = s.id) f ON true
      ORDER BY s.created_at, s.id`,
  )) as SponsorRow[];
  const consented = (await ds.query(
    `SELECT i.sponsor_id::text AS sponsor_id, fb.participant_id::text AS participant_id, fb.human, fb.warm, fb.direct, fb.hesitant,
            t.engine_human, t.engine_warm, t.engine_direct, t.engine_hesitant
       FROM pilot_feedback fb
       JOIN pilot_turns t ON t.id = fb.turn_id
       JOIN pilot_invitations i ON i.id = fb.invitation_id
       JOIN pilot_participants p ON p.id = fb.participant_id
      WHERE p.model_consent_at IS NOT NULL`,
  )) as Array<Record<string, string | number>>;
  const sponsors = rows.map((r) => {
    const enough = r.participants >= MIN_PEOPLE;
    const hide = <T>(v: T): T | null => (enough ? v : null);
    const mine = consented.filter((c) => c.sponsor_id === r.sponsor_id);
    const consentedRaters = new Set(mine.map((c) => c.participant_id)).size;
    const agreementShown = consentedRaters >= MIN_PEOPLE;
    const agreement = Object.fromEntries(
      SCALES.map((scale: Scale) => {
        const rho = spearman(
          mine.map((c) => Number(c[`engine_${scale}`])),
          mine.map((c) => Number(c[scale])),
        );
        return [scale, agreementShown ? { rho: round(rho.rho), ci95: rho.ci95 && { low: round(rho.ci95.low)!, high: round(rho.ci95.high)! }, pairs: rho.n } : null];
      }),
    );
    return {
      sponsor_id: r.sponsor_id,
      name: r.name,
      suppressed: !enough,
      participants: suppressedCount(r.participants),
      invitations: hide({ offered: r.offered, declined: r.declined, expired: r.expired }),
      conversations: hide({ started: r.started, stopped: r.stopped, replies: r.replies, median_delay_ms: round(r.median_delay_ms === null ? null : Number(r.median_delay_ms), 0) }),
      ratings: hide({
        count: r.ratings ?? 0,
        raters: r.raters ?? 0,
        means: Object.fromEntries(SCALES.map((s) => [s, round((r as unknown as Record<string, number | null>)[`mean_${s}`] ?? null, 2)])),
      }),
      agreement: { consented_raters: suppressedCount(consentedRaters), suppressed: !agreementShown, by_scale: agreement },
      identity_flags: hide(r.identity_flags),
    };
  });
  return {
    generated_at: new Date().toISOString(),
    min_people: MIN_PEOPLE,
    participants: {
      enrolled: suppressedCount(totals.enrolled),
      active: suppressedCount(totals.active),
      paused: suppressedCount(totals.paused),
      with_model_consent: suppressedCount(totals.model_consent),
      erasures: suppressedCount(totals.erased),
    },
    sponsors,
    definitions: { ...PILOT_EVIDENCE_DEFINITIONS },
  };
}
