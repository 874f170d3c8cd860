import type { DataSource } from 'typeorm';

/**
 * The life of a pilot invitation, shared by the web (a participant's actions) and the worker (the
 * repeatable offering and expiry jobs). States:
 *
 * - `offered`: the offering job chose a sponsor for an active participant (see {@link offerInvitations});
 * - `declined`: the participant said no (`POST /api/aei/pilot/invitation/decline`);
 * - `expired`: not started within {@link INVITATION_TTL_HOURS} (the expiry job), or the participant paused;
 * - `started`: the participant started it (`POST /api/aei/pilot/invitation/start`): it is now a conversation;
 * - `stopped`: the participant stopped it, it reached the turn limit, or it sat idle {@link IDLE_STOP_HOURS}.
 *
 * offered -> declined | expired | started; started -> stopped. Declined, expired and stopped are final.
 */
export const INVITATION_STATES = ['offered', 'declined', 'started', 'stopped', 'expired'] as const;

/** How long an offered invitation waits to be started. */
export const INVITATION_TTL_HOURS = 24;

/** A started conversation with no turn for this long is stopped, so the participant can be invited again. */
export const IDLE_STOP_HOURS = 24;

/** Days whose invitations count against a participant's weekly preference. */
const WEEK = `interval '7 days'`;

type Query = Pick<DataSource, 'query'>;

/**
 * Offers one invitation to every participant who may get one now: active (not paused), no open
 * invitation, fewer offers in the last 7 days than their weekly preference, and the current UTC
 * day and hour inside their chosen times. The sponsor is an active one with an agent endpoint and
 * conversations left in its quota (declined and expired invitations give theirs back), on one of
 * the participant's topics when they chose any; sponsors the participant has met least come
 * first. Participants offered least in the last 7 days are served first, so a scarce quota is
 * spread over people rather than going back to whoever declined last. Each participant is handled in its own transaction that locks the chosen sponsor, so two
 * workers running this at once neither exceed a quota nor offer one participant twice (the
 * partial unique index on open invitations decides).
 * @param ds - DataSource
 * @returns how many invitations were offered
 */
export async function offerInvitations(ds: DataSource): Promise<number> {
  const candidates = (await ds.query(
    `SELECT p.id, p.topics FROM pilot_participants p
      WHERE p.state = 'active'
        AND NOT EXISTS (SELECT 1 FROM pilot_invitations i WHERE i.participant_id = p.id AND i.state IN ('offered', 'started'))
        AND (SELECT count(*) FROM pilot_invitations i WHERE i.participant_id = p.id AND i.offered_at > now() - ${WEEK}) < p.per_week
        AND lower(to_char(now() AT TIME ZONE 'UTC', 'dy')) = ANY (p.days)
        AND extract(hour FROM now() AT TIME ZONE 'UTC') >= p.hour_from
        AND extract(hour FROM now() AT TIME ZONE 'UTC') < p.hour_to
      ORDER BY (SELECT count(*) FROM pilot_invitations i WHERE i.participant_id = p.id AND i.offered_at > now() - ${WEEK}), p.created_at`,
  )) as Array<{ id: string; topics: string[] }>;
  let offered = 0;
  for (const participant of candidates) {
    const made = await ds.transaction(async (tx) => {
      const [sponsor] = (await tx.query(
        `SELECT s.id FROM pilot_sponsors s
          WHERE s.state = 'active' AND s.agent_base_url IS NOT NULL
            AND (cardinality($2::text[]) = 0 OR s.topic = ANY ($2::text[]))
            AND (SELECT count(*) FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.state IN ('offered', 'started', 'stopped')) < s.quota_conversations
          ORDER BY (SELECT count(*) FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.participant_id = $1), random()
          LIMIT 1
          FOR UPDATE OF s SKIP LOCKED`,
        [participant.id, participant.topics],
      )) as Array<{ id: string }>;
      if (!sponsor) return false;
      // The quota is counted again under the sponsor's lock: the first count ran before it was taken.
      const inserted = (await tx.query(
        `INSERT INTO pilot_invitations (participant_id, sponsor_id, expires_at)
         SELECT $1, s.id, now() + make_interval(hours => $3) FROM pilot_sponsors s
          WHERE s.id = $2
            AND (SELECT count(*) FROM pilot_invitations i WHERE i.sponsor_id = s.id AND i.state IN ('offered', 'started', 'stopped')) < s.quota_conversations
            AND EXISTS (SELECT 1 FROM pilot_participants p WHERE p.id = $1 AND p.state = 'active')
         ON CONFLICT (participant_id) WHERE state IN ('offered', 'started') DO NOTHING
         RETURNING id`,
        [participant.id, sponsor.id, INVITATION_TTL_HOURS],
      )) as unknown[];
      return inserted.length > 0;
    });
    if (made) offered += 1;
  }
  return offered;
}

/**
 * Ends what waited too long: offered invitations past their expiry become `expired`, and started
 * conversations with no turn for {@link IDLE_STOP_HOURS} become `stopped` (reason `idle`). Each is a
 * conditional UPDATE, so a participant's start or reply racing it is decided by the database.
 * @param ds - DataSource
 * @returns how many invitations expired and how many conversations were stopped
 */
export async function expireInvitations(ds: Query): Promise<{ expired: number; stopped: number }> {
  const expired = (await ds.query(
    `UPDATE pilot_invitations SET state = 'expired', ended_at = now(), end_reason = 'not_started'
      WHERE state = 'offered' AND expires_at <= now() RETURNING id`,
  )) as [unknown[], number];
  const stopped = (await ds.query(
    `UPDATE pilot_invitations i SET state = 'stopped', ended_at = now(), end_reason = 'idle'
      WHERE i.state = 'started'
        AND greatest(i.started_at, (SELECT max(t.created_at) FROM pilot_turns t WHERE t.invitation_id = i.id)) <= now() - make_interval(hours => $1)
      RETURNING id`,
    [IDLE_STOP_HOURS],
  )) as [unknown[], number];
  return { expired: expired[0].length, stopped: stopped[0].length };
}
