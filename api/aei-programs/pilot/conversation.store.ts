import type { DataSource } from 'typeorm';
import { AppError } from '../../../shared/errors';
import { scoreText, SCORER_VERSION } from '../../../shared/scoring';
import { engineScaleValues, SCALES, type ScaleRatings } from '../rating-scales';
import type { Turn } from './sponsor-agent';

type Query = Pick<DataSource, 'query'>;

/** Replies a participant sends in one conversation; after the agent answers the last, it stops (reason `turn_limit`). */
export const MAX_REPLIES = 8;

/** An invitation or conversation as its participant sees it: never the sponsor, its name or its profile. */
export interface InvitationView {
  invitation_id: string;
  state: string;
  topic: string;
  offered_at: string;
  expires_at: string;
  started_at: string | null;
  ended_at: string | null;
  end_reason: string | null;
}

/** One turn as its participant reads it. */
export interface TurnView {
  turn_id: string;
  role: 'participant' | 'agent';
  text: string;
  delay_ms: number | null;
  created_at: string;
  /** For agent turns: whether the participant rated it. */
  rated?: boolean;
}

const iso = (d: unknown) => (d ? new Date(d as Date).toISOString() : null);

function invitationView(r: Record<string, unknown>): InvitationView {
  return {
    invitation_id: String(r.id),
    state: String(r.state),
    topic: String(r.topic),
    offered_at: iso(r.offered_at)!,
    expires_at: iso(r.expires_at)!,
    started_at: iso(r.started_at),
    ended_at: iso(r.ended_at),
    end_reason: (r.end_reason as string | null) ?? null,
  };
}

const INVITATION_SQL = `SELECT i.id::text AS id, i.state, s.topic, i.offered_at, i.expires_at, i.started_at, i.ended_at, i.end_reason, i.sponsor_id::text AS sponsor_id
  FROM pilot_invitations i JOIN pilot_sponsors s ON s.id = i.sponsor_id`;

/**
 * A participant's open invitation (offered or started), if any.
 * @param ds - DataSource
 * @param participantId - the participant
 * @returns the invitation
 */
export async function openInvitation(ds: Query, participantId: string): Promise<(InvitationView & { sponsorId: string }) | undefined> {
  const [r] = (await ds.query(`${INVITATION_SQL} WHERE i.participant_id = $1 AND i.state IN ('offered', 'started')`, [participantId])) as Array<Record<string, unknown>>;
  return r ? { ...invitationView(r), sponsorId: String(r.sponsor_id) } : undefined;
}

/**
 * The participant's current conversation: the started one, else the most recently started.
 * @param ds - DataSource
 * @param participantId - the participant
 * @returns the conversation with its turns and the brief, or undefined
 */
export async function currentConversation(ds: Query, participantId: string): Promise<{ conversation: InvitationView & { brief: string; max_replies: number }; turns: TurnView[] } | undefined> {
  const [r] = (await ds.query(
    `SELECT i.id::text AS id, i.state, s.topic, s.participant_brief, i.offered_at, i.expires_at, i.started_at, i.ended_at, i.end_reason
       FROM pilot_invitations i JOIN pilot_sponsors s ON s.id = i.sponsor_id
      WHERE i.participant_id = $1 AND i.started_at IS NOT NULL ORDER BY (i.state = 'started') DESC, i.started_at DESC LIMIT 1`,
    [participantId],
  )) as Array<Record<string, unknown>>;
  if (!r) return undefined;
  return { conversation: { ...invitationView(r), brief: String(r.participant_brief), max_replies: MAX_REPLIES }, turns: await turnsOf(ds, String(r.id)) };
}

async function turnsOf(ds: Query, invitationId: string): Promise<TurnView[]> {
  const rows = (await ds.query(
    `SELECT t.id::text AS id, t.role, t.text, t.delay_ms, t.created_at, EXISTS (SELECT 1 FROM pilot_feedback f WHERE f.turn_id = t.id) AS rated
       FROM pilot_turns t WHERE t.invitation_id = $1 ORDER BY t.seq`,
    [invitationId],
  )) as Array<Record<string, unknown>>;
  return rows.map((t) => ({
    turn_id: String(t.id),
    role: t.role as TurnView['role'],
    text: String(t.text),
    delay_ms: t.delay_ms === null ? null : Number(t.delay_ms),
    created_at: iso(t.created_at)!,
    ...(t.role === 'agent' ? { rated: Boolean(t.rated) } : {}),
  }));
}

const noInvitation = () => new AppError(409, 'no_invitation', 'There is no invitation waiting to be answered (GET /api/aei/pilot/me shows the current one).');
const noConversation = () => new AppError(409, 'no_conversation', 'There is no conversation in progress (start an invitation first).');

/**
 * Declines the participant's offered invitation.
 * @param ds - DataSource
 * @param participantId - the participant
 * @returns the invitation after the change
 * @throws AppError 409 no_invitation
 */
export async function declineInvitation(ds: Query, participantId: string): Promise<InvitationView> {
  const [rows] = (await ds.query(
    `UPDATE pilot_invitations SET state = 'declined', ended_at = now() WHERE participant_id = $1 AND state = 'offered' AND expires_at > now() RETURNING id`,
    [participantId],
  )) as [Array<{ id: string }>, number];
  if (!rows[0]) throw noInvitation();
  const [r] = (await ds.query(`${INVITATION_SQL} WHERE i.id = $1`, [rows[0].id])) as Array<Record<string, unknown>>;
  return invitationView(r);
}

/**
 * Starts the participant's offered invitation: it becomes a conversation.
 * @param ds - DataSource
 * @param participantId - the participant
 * @returns the invitation id
 * @throws AppError 409 no_invitation (none offered, or past its expiry)
 */
export async function startInvitation(ds: Query, participantId: string): Promise<string> {
  const [rows] = (await ds.query(
    `UPDATE pilot_invitations i SET state = 'started', started_at = now()
       FROM pilot_participants p
      WHERE i.participant_id = $1 AND p.id = i.participant_id AND p.state = 'active' AND i.state = 'offered' AND i.expires_at > now()
      RETURNING i.id::text AS id`,
    [participantId],
  )) as [Array<{ id: string }>, number];
  if (!rows[0]) throw noInvitation();
  return rows[0].id;
}

/**
 * Stops the participant's conversation.
 * @param ds - DataSource
 * @param participantId - the participant
 * @throws AppError 409 no_conversation
 */
export async function stopConversation(ds: Query, participantId: string): Promise<void> {
  const [rows] = (await ds.query(
    `UPDATE pilot_invitations SET state = 'stopped', ended_at = now(), end_reason = 'participant' WHERE participant_id = $1 AND state = 'started' RETURNING id`,
    [participantId],
  )) as [unknown[], number];
  if (!rows[0]) throw noConversation();
}

/** The conversation a reply goes into, read before the agent is asked. */
export interface ReplyContext {
  invitationId: string;
  sponsorId: string;
  nextSeq: number;
  replies: number;
  /** Milliseconds since the agent's last turn was recorded (or since the start): the participant's delay. */
  delayMs: number;
  turns: Turn[];
}

/**
 * Reads the started conversation a reply goes into, and the delay before the reply, measured on the
 * database's clock from the agent's last turn (or the start) to the moment the reply arrived.
 * @param ds - DataSource
 * @param participantId - the participant
 * @returns the context
 * @throws AppError 409 no_conversation
 */
export async function replyContext(ds: Query, participantId: string): Promise<ReplyContext> {
  const [c] = (await ds.query(
    `SELECT i.id::text AS id, i.sponsor_id::text AS sponsor_id,
            (extract(epoch FROM (clock_timestamp() - greatest(i.started_at, (SELECT max(t.created_at) FROM pilot_turns t WHERE t.invitation_id = i.id)))) * 1000)::bigint AS delay_ms
       FROM pilot_invitations i WHERE i.participant_id = $1 AND i.state = 'started'`,
    [participantId],
  )) as Array<{ id: string; sponsor_id: string; delay_ms: string }>;
  if (!c) throw noConversation();
  const turns = (await ds.query(`SELECT role, text, seq FROM pilot_turns WHERE invitation_id = $1 ORDER BY seq`, [c.id])) as Array<Turn & { seq: number }>;
  return {
    invitationId: c.id,
    sponsorId: c.sponsor_id,
    nextSeq: turns.length === 0 ? 1 : Number(turns[turns.length - 1].seq) + 1,
    replies: turns.filter((t) => t.role === 'participant').length,
    delayMs: Math.max(0, Number(c.delay_ms)),
    turns: turns.map((t) => ({ role: t.role, text: t.text })),
  };
}

/**
 * Records a reply and the agent's answer together, once: the conversation must still be started
 * and no other turn may have been added since the context was read (the turn numbers are unique),
 * so a double submission records one exchange. The agent's turn keeps the engine's text-only
 * values, which the calibration set sets the participant's ratings against. After the last
 * allowed reply the conversation stops (reason `turn_limit`).
 * @param ds - DataSource
 * @param participantId - the participant
 * @param context - what {@link replyContext} read
 * @param reply - the participant's text
 * @param agent - the agent's text as shown (identity hidden) and whether it named the sponsor
 * @returns the two turn ids and whether the conversation stopped
 * @throws AppError 409 turn_conflict
 */
export async function recordExchange(
  ds: DataSource,
  participantId: string,
  context: ReplyContext,
  reply: string,
  agent: { text: string; flagged: boolean },
): Promise<{ replyTurnId: string; agentTurnId: string; stopped: boolean }> {
  const engine = engineScaleValues(scoreText({ text: agent.text }));
  return ds.transaction(async (tx) => {
    const [open] = (await tx.query(`SELECT id FROM pilot_invitations WHERE id = $1 AND state = 'started' FOR UPDATE`, [context.invitationId])) as unknown[];
    if (!open) throw noConversation();
    const [last] = (await tx.query(`SELECT coalesce(max(seq), 0)::int AS seq FROM pilot_turns WHERE invitation_id = $1`, [context.invitationId])) as Array<{ seq: number }>;
    if (last.seq + 1 !== context.nextSeq) throw new AppError(409, 'turn_conflict', 'Another reply was recorded in this conversation meanwhile; read it with GET /api/aei/pilot/me.');
    const [replyRow] = (await tx.query(
      `INSERT INTO pilot_turns (invitation_id, participant_id, seq, role, text, delay_ms) VALUES ($1, $2, $3, 'participant', $4, $5) RETURNING id::text AS id`,
      [context.invitationId, participantId, context.nextSeq, reply, context.delayMs],
    )) as Array<{ id: string }>;
    const [agentRow] = (await tx.query(
      `INSERT INTO pilot_turns (invitation_id, participant_id, seq, role, text, identity_flag, scorer_version, engine_human, engine_warm, engine_direct, engine_hesitant)
       VALUES ($1, $2, $3, 'agent', $4, $5, $6, $7, $8, $9, $10) RETURNING id::text AS id`,
      [context.invitationId, participantId, context.nextSeq + 1, agent.text, agent.flagged, SCORER_VERSION, ...SCALES.map((s) => engine[s])],
    )) as Array<{ id: string }>;
    const stopped = context.replies + 1 >= MAX_REPLIES;
    if (stopped) await tx.query(`UPDATE pilot_invitations SET state = 'stopped', ended_at = now(), end_reason = 'turn_limit' WHERE id = $1`, [context.invitationId]);
    return { replyTurnId: replyRow.id, agentTurnId: agentRow.id, stopped };
  });
}

/**
 * Records the participant's ratings of one of the agent's turns in their conversations, once.
 * @param ds - DataSource
 * @param participantId - the participant
 * @param turnId - the agent turn
 * @param ratings - the four ratings
 * @param comment - the optional comment
 * @throws AppError 422 turn_unknown (not an agent turn of this participant), 409 already_rated
 */
export async function recordFeedback(ds: Query, participantId: string, turnId: string, ratings: ScaleRatings, comment: string | undefined): Promise<void> {
  const inserted = (await ds.query(
    `INSERT INTO pilot_feedback (turn_id, participant_id, invitation_id, human, warm, direct, hesitant, comment)
     SELECT t.id, t.participant_id, t.invitation_id, $3, $4, $5, $6, $7 FROM pilot_turns t
      WHERE t.id = $1 AND t.participant_id = $2 AND t.role = 'agent'
     ON CONFLICT ON CONSTRAINT pk_pilot_feedback DO NOTHING RETURNING turn_id`,
    [turnId, participantId, ...SCALES.map((s) => ratings[s]), comment ?? null],
  )) as unknown[];
  if (inserted.length > 0) return;
  const [mine] = (await ds.query(`SELECT 1 FROM pilot_turns WHERE id = $1 AND participant_id = $2 AND role = 'agent'`, [turnId, participantId])) as unknown[];
  if (!mine) throw new AppError(422, 'turn_unknown', "turn_id is not an agent turn of one of this participant's conversations.", {
    details: { fields: [{ path: '/turn_id', rule: 'exists', message: 'must be an agent turn of your conversations' }] },
  });
  throw new AppError(409, 'already_rated', 'This turn was already rated; each agent turn is rated once.');
}
