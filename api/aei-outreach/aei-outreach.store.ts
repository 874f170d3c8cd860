import type { DataSource } from 'typeorm';
import { scoreText } from '../../shared/scoring';
import type { ProfileResult } from '../../shared/scoring';
import { AppError } from '../../shared/errors';
import type { DraftPatchRequest, DraftRequest, ResearchRequest } from './aei-outreach.schema';

/**
 * The engine's score of an outreach message against a profile: how human the operator's own text
 * reads to the kind of person it is for.
 * @param body - the message
 * @param profile - the profile id
 * @returns the stored score
 */
export function scoreDraft(body: string, profile: string) {
  const scored = scoreText({ text: body, profile });
  const verdict = scored.result as ProfileResult;
  return {
    eq_score: verdict.eq_score,
    passed: verdict.passed,
    human_likeness: scored.human_likeness,
    signals: verdict.signals.map((s) => ({ code: s.id, spans: s.spans.map((sp) => ({ start: sp.start, end: sp.end })) })),
    improvement: verdict.advice.improvement,
    scorer_version: scored.scorer_version,
  };
}

interface RawResearch {
  id: number;
  company_name: string;
  site: string;
  why_it_fits: string;
  source: string;
  created_at: Date;
}

function presentResearch(r: RawResearch) {
  return { research_id: r.id, company_name: r.company_name, site: r.site, why_it_fits: r.why_it_fits, source: r.source, created_at: r.created_at.toISOString() };
}

/**
 * Stores a research note.
 * @param db - DataSource
 * @param note - the validated note
 * @returns the note as answered
 */
export async function createResearch(db: DataSource, note: ResearchRequest) {
  const rows = (await db.query(
    `INSERT INTO aei_outreach_research (company_name, site, why_it_fits, source) VALUES ($1, $2, $3, $4) RETURNING *`,
    [note.company_name, note.site, note.why_it_fits, note.source],
  )) as RawResearch[];
  return presentResearch(rows[0]);
}

interface RawDraft {
  id: number;
  research_id: number;
  company_name: string;
  profile: string;
  subject: string;
  body: string;
  status: 'draft' | 'approved' | 'sent';
  score: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  sent_at: Date | null;
}

function presentDraft(d: RawDraft) {
  return {
    draft_id: d.id,
    research_id: d.research_id,
    company_name: d.company_name,
    profile: d.profile,
    subject: d.subject,
    body: d.body,
    status: d.status,
    score: d.score,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    approved_at: d.approved_at?.toISOString() ?? null,
    sent_at: d.sent_at?.toISOString() ?? null,
  };
}

const SELECT_DRAFT = `SELECT d.*, r.company_name FROM aei_outreach_drafts d JOIN aei_outreach_research r ON r.id = d.research_id`;

/**
 * Stores a draft for a research note with the engine's score.
 * @param db - DataSource
 * @param draft - the validated draft
 * @returns the draft as answered
 * @throws AppError 422 research_unknown naming /research_id
 */
export async function createDraft(db: DataSource, draft: DraftRequest) {
  const score = scoreDraft(draft.body, draft.profile);
  const rows = (await db.query(
    `INSERT INTO aei_outreach_drafts (research_id, profile, subject, body, score)
     SELECT id, $2, $3, $4, $5 FROM aei_outreach_research WHERE id = $1 RETURNING id`,
    [draft.research_id, draft.profile, draft.subject, draft.body, JSON.stringify(score)],
  )) as Array<{ id: number }>;
  if (!rows[0]) {
    throw new AppError(422, 'research_unknown', 'No research note has this research_id; create one with POST /api/operator/aei-outreach/research.', {
      details: { fields: [{ path: '/research_id', rule: 'exists', message: 'is no research note' }] },
    });
  }
  return (await getDraft(db, rows[0].id))!;
}

/**
 * A draft by id.
 * @param db - DataSource
 * @param id - draft id
 * @returns the draft as answered, or undefined
 */
export async function getDraft(db: DataSource, id: number) {
  const rows = (await db.query(`${SELECT_DRAFT} WHERE d.id = $1`, [id])) as RawDraft[];
  return rows[0] ? presentDraft(rows[0]) : undefined;
}

/**
 * Drafts, newest first, optionally for one note or in one status.
 * @param db - DataSource
 * @param filter - research id and status
 * @returns the drafts as answered
 */
export async function listDrafts(db: DataSource, filter: { research_id?: number; status?: string }) {
  const rows = (await db.query(`${SELECT_DRAFT} WHERE ($1::int IS NULL OR d.research_id = $1) AND ($2::text IS NULL OR d.status = $2) ORDER BY d.id DESC LIMIT 500`, [
    filter.research_id ?? null,
    filter.status ?? null,
  ])) as RawDraft[];
  return rows.map(presentDraft);
}

/**
 * Edits, approves or marks a draft sent. A new text or profile is scored again and withdraws an
 * approval (it approved the old text); a sent draft is final; only an approved draft can be marked sent.
 * @param db - DataSource
 * @param id - draft id
 * @param patch - the validated change
 * @returns the draft as answered
 * @throws AppError 404 draft_not_found, 409 draft_already_sent or draft_not_approved
 */
export async function patchDraft(db: DataSource, id: number, patch: DraftPatchRequest) {
  return db.transaction(async (tx) => {
    const rows = (await tx.query(`${SELECT_DRAFT} WHERE d.id = $1 FOR UPDATE OF d`, [id])) as RawDraft[];
    const current = rows[0];
    if (!current) throw new AppError(404, 'draft_not_found', 'No outreach draft has this id.');
    if (current.status === 'sent') throw new AppError(409, 'draft_already_sent', 'This draft was marked sent; it is final. Write a new draft instead.');
    const textChanged = patch.body !== undefined || patch.profile !== undefined;
    const profile = patch.profile ?? current.profile;
    const body = patch.body ?? current.body;
    const status = patch.status ?? (textChanged ? 'draft' : current.status);
    if (status === 'sent' && (textChanged || current.status !== 'approved')) {
      throw new AppError(409, 'draft_not_approved', 'Approve the draft as it stands before marking it sent.');
    }
    const score = textChanged ? scoreDraft(body, profile) : current.score;
    await tx.query(
      `UPDATE aei_outreach_drafts
          SET profile = $2, subject = $3, body = $4, score = $5, status = $6, updated_at = now(),
              approved_at = CASE WHEN $6 = 'draft' THEN NULL WHEN status = 'draft' OR approved_at IS NULL THEN now() ELSE approved_at END,
              sent_at = CASE WHEN $6 = 'sent' THEN now() ELSE NULL END
        WHERE id = $1`,
      [id, profile, patch.subject ?? current.subject, body, JSON.stringify(score), status],
    );
    const after = (await tx.query(`${SELECT_DRAFT} WHERE d.id = $1`, [id])) as RawDraft[];
    return presentDraft(after[0]);
  });
}
