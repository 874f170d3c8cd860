import type { DataSource } from 'typeorm';
import { hashProgramToken, mintProgramToken, PILOT_TOKEN, tokenHashMatches } from '../../http/program-token';
import type { PilotPreferencesRequest } from './pilot.schema';

type Query = Pick<DataSource, 'query'>;

/** A participant, as their token finds them. */
export interface Participant {
  id: string;
  state: 'active' | 'paused';
  consentVersion: string;
  consentedAt: Date;
  modelConsentVersion: string | null;
  modelConsentAt: Date | null;
  topics: string[];
  perWeek: number;
  days: string[];
  hourFrom: number;
  hourTo: number;
  preferencesAt: Date | null;
  pausedAt: Date | null;
}

const COLUMNS = `id::text AS id, token_hash, state, consent_version, consented_at, model_consent_version, model_consent_at,
  topics, per_week, days, hour_from, hour_to, preferences_at, paused_at`;

function participantOf(r: Record<string, unknown>): Participant {
  return {
    id: String(r.id),
    state: r.state as Participant['state'],
    consentVersion: String(r.consent_version),
    consentedAt: new Date(r.consented_at as Date),
    modelConsentVersion: (r.model_consent_version as string | null) ?? null,
    modelConsentAt: r.model_consent_at ? new Date(r.model_consent_at as Date) : null,
    topics: r.topics as string[],
    perWeek: Number(r.per_week),
    days: r.days as string[],
    hourFrom: Number(r.hour_from),
    hourTo: Number(r.hour_to),
    preferencesAt: r.preferences_at ? new Date(r.preferences_at as Date) : null,
    pausedAt: r.paused_at ? new Date(r.paused_at as Date) : null,
  };
}

/**
 * Enrolls a participant who accepted a consent version.
 * @param ds - DataSource
 * @param consentVersion - the accepted version
 * @returns the participant and their token (shown once; only its hash is stored)
 */
export async function enrollParticipant(ds: Query, consentVersion: string): Promise<{ participant: Participant; token: string }> {
  const token = mintProgramToken(PILOT_TOKEN);
  const [row] = (await ds.query(`INSERT INTO pilot_participants (token_hash, consent_version) VALUES ($1, $2) RETURNING ${COLUMNS}`, [
    hashProgramToken(token),
    consentVersion,
  ])) as Array<Record<string, unknown>>;
  return { participant: participantOf(row), token };
}

/**
 * The participant a token hash belongs to.
 * @param ds - DataSource
 * @param tokenHash - SHA-256 of the presented token
 * @returns the participant, or undefined (unknown or deleted)
 */
export async function findParticipant(ds: Query, tokenHash: string): Promise<Participant | undefined> {
  const [row] = (await ds.query(`SELECT ${COLUMNS} FROM pilot_participants WHERE token_hash = $1`, [tokenHash])) as Array<Record<string, unknown>>;
  if (!row || !tokenHashMatches(String(row.token_hash), tokenHash)) return undefined;
  return participantOf(row);
}

/**
 * Sets the preferences a request names, keeping the others.
 * @param ds - DataSource
 * @param id - the participant
 * @param prefs - the validated preferences
 * @returns the participant after the change
 */
export async function setPreferences(ds: Query, id: string, prefs: PilotPreferencesRequest): Promise<Participant> {
  const [rows] = (await ds.query(
    `UPDATE pilot_participants SET
        topics = coalesce($2::text[], topics),
        per_week = coalesce($3::smallint, per_week),
        days = coalesce($4::text[], days),
        hour_from = coalesce($5::smallint, hour_from),
        hour_to = coalesce($6::smallint, hour_to),
        preferences_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, prefs.topics ?? null, prefs.conversations_per_week ?? null, prefs.times?.days ?? null, prefs.times?.from_hour_utc ?? null, prefs.times?.to_hour_utc ?? null],
  )) as [Array<Record<string, unknown>>, number];
  return participantOf(rows[0]);
}

/**
 * Gives or withdraws the model consent. Withdrawing removes, at once, the wording-review items made
 * of the participant's replies (and so every rating others gave them); their own ratings leave the
 * calibration set because it reads only participants who hold the consent now.
 * @param ds - DataSource
 * @param id - the participant
 * @param version - the accepted version, or null to withdraw
 * @returns the participant after the change, and how many review items were withdrawn
 */
export async function setModelConsent(ds: DataSource, id: string, version: string | null): Promise<{ participant: Participant; itemsWithdrawn: number }> {
  return ds.transaction(async (tx) => {
    const [rows] = (await tx.query(
      `UPDATE pilot_participants SET model_consent_version = $2, model_consent_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, version],
    )) as [Array<Record<string, unknown>>, number];
    let itemsWithdrawn = 0;
    if (version === null) {
      const [deleted] = (await tx.query(
        `DELETE FROM wording_review_items i USING pilot_turns t WHERE i.pilot_turn_id = t.id AND t.participant_id = $1 RETURNING i.id`,
        [id],
      )) as [unknown[], number];
      itemsWithdrawn = deleted.length;
    }
    return { participant: participantOf(rows[0]), itemsWithdrawn };
  });
}

/**
 * Pauses a participant: no invitation is offered while paused, and an invitation offered but not
 * started expires now (reason `paused`). A started conversation stays, to be finished or stopped.
 * @param ds - DataSource
 * @param id - the participant
 * @returns the participant after the change
 */
export async function pauseParticipant(ds: DataSource, id: string): Promise<Participant> {
  return ds.transaction(async (tx) => {
    const [rows] = (await tx.query(
      `UPDATE pilot_participants SET state = 'paused', paused_at = coalesce(paused_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    )) as [Array<Record<string, unknown>>, number];
    await tx.query(`UPDATE pilot_invitations SET state = 'expired', ended_at = now(), end_reason = 'paused' WHERE participant_id = $1 AND state = 'offered'`, [id]);
    return participantOf(rows[0]);
  });
}

/**
 * Resumes a paused participant (invitations may be offered again from the next offering run).
 * @param ds - DataSource
 * @param id - the participant
 * @returns the participant after the change
 */
export async function resumeParticipant(ds: Query, id: string): Promise<Participant> {
  const [rows] = (await ds.query(`UPDATE pilot_participants SET state = 'active', paused_at = NULL WHERE id = $1 RETURNING ${COLUMNS}`, [id])) as [
    Array<Record<string, unknown>>,
    number,
  ];
  return participantOf(rows[0]);
}

/** What a deletion removed, row counts per kind. */
export interface Erasure {
  participant: number;
  invitations: number;
  conversation_turns: number;
  replies: number;
  feedback: number;
  wording_review_items: number;
  wording_review_ratings: number;
}

/**
 * Hard-deletes a participant and every row that is theirs (invitations, turns, feedback, the review
 * items made of their replies with the ratings on them, the token's hash), counting each kind
 * first, and adds one to the identifier-free erasure counter, all in one transaction.
 * @param ds - DataSource
 * @param id - the participant
 * @returns what was deleted, or null when the participant was already gone
 */
export async function eraseParticipant(ds: DataSource, id: string): Promise<Erasure | null> {
  return ds.transaction(async (tx) => {
    const [locked] = (await tx.query(`SELECT id FROM pilot_participants WHERE id = $1 FOR UPDATE`, [id])) as unknown[];
    if (!locked) return null;
    const [c] = (await tx.query(
      `SELECT (SELECT count(*)::int FROM pilot_invitations WHERE participant_id = $1) AS invitations,
              (SELECT count(*)::int FROM pilot_turns WHERE participant_id = $1) AS turns,
              (SELECT count(*)::int FROM pilot_turns WHERE participant_id = $1 AND role = 'participant') AS replies,
              (SELECT count(*)::int FROM pilot_feedback WHERE participant_id = $1) AS feedback,
              (SELECT count(*)::int FROM wording_review_items i JOIN pilot_turns t ON t.id = i.pilot_turn_id WHERE t.participant_id = $1) AS items,
              (SELECT count(*)::int FROM wording_review_ratings r JOIN wording_review_items i ON i.id = r.item_id
                 JOIN pilot_turns t ON t.id = i.pilot_turn_id WHERE t.participant_id = $1) AS ratings`,
      [id],
    )) as Array<Record<string, number>>;
    await tx.query(`DELETE FROM pilot_participants WHERE id = $1`, [id]);
    await tx.query(`INSERT INTO pilot_erasures (id, erased) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET erased = pilot_erasures.erased + 1`);
    return {
      participant: 1,
      invitations: c.invitations,
      conversation_turns: c.turns,
      replies: c.replies,
      feedback: c.feedback,
      wording_review_items: c.items,
      wording_review_ratings: c.ratings,
    };
  });
}
