import type { DataSource } from 'typeorm';
import { AppError } from '../../../shared/errors';
import type { SecretBox } from '../../../shared/secrets/secret-box';
import { namesSponsor } from './identity-flag';
import type { SponsorRequest } from './sponsor.schema';
import { takeSponsorshipSlot } from '../../../shared/programs/sponsorship-slots';

/** The purpose label of the box that seals sponsors' agent keys (see `createSecretBox`). */
export const AGENT_KEY_PURPOSE = 'pilot-agent-key';

/** What the conversation needs of a sponsor to reach its agent; the key is opened only here. */
export interface SponsorAgent {
  sponsorId: string;
  name: string;
  domains: string[];
  instructions: string;
  brief: string;
  topic: string;
  endpoint: { baseUrl: string; model: string; apiKey: string } | null;
}

const VIEW_SQL = `
  SELECT s.id::text AS sponsor_id, s.company_id::text AS company_id, s.name, s.domains, s.state, s.topic, s.participant_brief, s.agent_instructions,
         s.quota_conversations, s.agent_base_url, s.agent_model, s.agent_key_sealed IS NOT NULL AS key_set,
         s.agent_calls, s.agent_failures, s.last_agent_failure, s.last_agent_failure_at,
         count(i.id)::int AS offered,
         count(i.id) FILTER (WHERE i.state IN ('offered', 'started'))::int AS open,
         count(i.id) FILTER (WHERE i.state = 'declined')::int AS declined,
         count(i.id) FILTER (WHERE i.state = 'expired')::int AS expired,
         count(i.id) FILTER (WHERE i.started_at IS NOT NULL)::int AS started,
         count(i.id) FILTER (WHERE i.state = 'stopped')::int AS stopped,
         count(i.id) FILTER (WHERE i.state IN ('offered', 'started', 'stopped'))::int AS quota_used,
         (SELECT count(*)::int FROM pilot_turns t JOIN pilot_invitations j ON j.id = t.invitation_id WHERE j.sponsor_id = s.id AND t.role = 'agent') AS agent_turns,
         (SELECT count(*)::int FROM pilot_turns t JOIN pilot_invitations j ON j.id = t.invitation_id WHERE j.sponsor_id = s.id AND t.identity_flag) AS identity_flags
    FROM pilot_sponsors s LEFT JOIN pilot_invitations i ON i.sponsor_id = s.id`;

function present(r: Record<string, unknown>) {
  const quota = Number(r.quota_conversations);
  return {
    sponsor_id: String(r.sponsor_id),
    company_id: (r.company_id as string | null) ?? null,
    name: String(r.name),
    domains: r.domains as string[],
    state: r.state as 'active' | 'paused',
    topic: String(r.topic),
    participant_brief: String(r.participant_brief),
    agent_instructions: String(r.agent_instructions),
    quota_conversations: quota,
    agent:
      r.agent_base_url === null
        ? null
        : {
            base_url: String(r.agent_base_url),
            model: String(r.agent_model),
            key_set: true as const,
            calls: Number(r.agent_calls),
            failures: Number(r.agent_failures),
            last_failure: (r.last_agent_failure as string | null) ?? null,
            last_failure_at: r.last_agent_failure_at ? new Date(r.last_agent_failure_at as Date).toISOString() : null,
          },
    usage: {
      invitations_offered: Number(r.offered),
      open: Number(r.open),
      declined: Number(r.declined),
      expired: Number(r.expired),
      conversations_started: Number(r.started),
      conversations_stopped: Number(r.stopped),
      quota_used: Number(r.quota_used),
      quota_left: Math.max(0, quota - Number(r.quota_used)),
      agent_turns: Number(r.agent_turns),
      identity_flags: Number(r.identity_flags),
    },
  };
}

/** A sponsor as the operator reads it (never the agent key). */
export type SponsorView = ReturnType<typeof present>;

/**
 * Every sponsor with its usage, oldest first.
 * @param ds - DataSource
 * @returns the sponsors
 */
export async function listSponsors(ds: Pick<DataSource, 'query'>): Promise<SponsorView[]> {
  const rows = (await ds.query(`${VIEW_SQL} GROUP BY s.id ORDER BY s.created_at, s.id`)) as Array<Record<string, unknown>>;
  return rows.map(present);
}

async function viewOf(ds: Pick<DataSource, 'query'>, id: string): Promise<SponsorView> {
  const [row] = (await ds.query(`${VIEW_SQL} WHERE s.id = $1 GROUP BY s.id`, [id])) as Array<Record<string, unknown>>;
  return present(row);
}

// A URL the guard could never call is refused when it is registered, not at a participant's turn.
function checkedBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fieldError('/agent/base_url', 'format', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fieldError('/agent/base_url', 'pattern', 'must be an http or https URL');
  if (url.username !== '' || url.password !== '') throw fieldError('/agent/base_url', 'credentials', 'must not hold a user name or password; send the key as api_key');
  if (url.search !== '' || url.hash !== '') throw fieldError('/agent/base_url', 'format', 'must not hold a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

function fieldError(path: string, rule: string, message: string): AppError {
  return new AppError(422, 'validation_failed', `${path.slice(1)} ${message}.`, { details: { fields: [{ path, rule, message }] } });
}

/**
 * Creates or changes a sponsor. The agent key is sealed with the sponsor's id as context, so a
 * sealed key copied onto another sponsor's row does not open. Pausing a sponsor expires its
 * invitations offered but not started.
 * @param ds - DataSource
 * @param box - the box sealing agent keys (undefined when PILOT_AGENT_KEY_SECRET is unset)
 * @param body - the validated request
 * @returns the sponsor and whether it was created
 * @throws AppError 404 sponsor_unknown, 409 sponsor_name_taken, 422 brief_names_sponsor or validation_failed, 503 agent_key_secret_unset
 */
export async function saveSponsor(ds: DataSource, box: SecretBox | undefined, body: SponsorRequest): Promise<{ sponsor: SponsorView; created: boolean }> {
  const baseUrl = body.agent ? checkedBaseUrl(body.agent.base_url) : undefined;
  if (body.agent && !box) {
    throw new AppError(503, 'agent_key_secret_unset', 'Agent keys cannot be stored: set PILOT_AGENT_KEY_SECRET (a secret of at least 32 characters) on the server.');
  }
  return ds.transaction(async (tx) => {
    let id = body.sponsor_id?.toLowerCase();
    const created = id === undefined;
    if (id === undefined) {
      const rows = (await tx.query(
        `INSERT INTO pilot_sponsors (name, topic, participant_brief) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT uq_pilot_sponsors_name DO NOTHING RETURNING id::text AS id`,
        [body.name, body.topic, body.participant_brief],
      )) as Array<{ id: string }>;
      if (!rows[0]) throw new AppError(409, 'sponsor_name_taken', 'A sponsor with this name exists; change it with its sponsor_id.');
      id = rows[0].id;
    }
    const [current] = (await tx.query(`SELECT name, domains, participant_brief FROM pilot_sponsors WHERE id = $1 FOR UPDATE`, [id])) as Array<{
      name: string;
      domains: string[];
      participant_brief: string;
    }>;
    if (!current) throw new AppError(404, 'sponsor_unknown', 'No sponsor has this sponsor_id (GET /api/operator/aei/sponsor lists them).');
    const name = body.name ?? current.name;
    const domains = body.domains ?? current.domains;
    if (namesSponsor(body.participant_brief ?? current.participant_brief, { name, domains })) {
      throw new AppError(422, 'brief_names_sponsor', "The participant brief names the sponsor or one of its domains; participants must not learn who is behind an agent.", {
        details: { fields: [{ path: '/participant_brief', rule: 'blind', message: 'must not name the sponsor' }] },
      });
    }
    try {
      await tx.query(
        `UPDATE pilot_sponsors SET
            name = $2, domains = $3::text[],
            state = coalesce($4, state), topic = coalesce($5, topic), participant_brief = coalesce($6, participant_brief),
            agent_instructions = coalesce($7, agent_instructions), quota_conversations = coalesce($8, quota_conversations),
            updated_at = now()
          WHERE id = $1`,
        [id, name, domains, body.state ?? null, body.topic ?? null, body.participant_brief ?? null, body.agent_instructions ?? null, body.quota_conversations ?? null],
      );
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new AppError(409, 'sponsor_name_taken', 'Another sponsor has this name.');
      throw err;
    }
    if (body.agent === null) {
      await tx.query(`UPDATE pilot_sponsors SET agent_base_url = NULL, agent_model = NULL, agent_key_sealed = NULL WHERE id = $1`, [id]);
    } else if (body.agent) {
      await tx.query(
        `UPDATE pilot_sponsors SET agent_base_url = $2, agent_model = $3, agent_key_sealed = $4, last_agent_failure = NULL, last_agent_failure_at = NULL WHERE id = $1`,
        [id, baseUrl, body.agent.model, box!.seal(body.agent.api_key, id)],
      );
    }
    if (body.company_id === null) {
      await tx.query(`UPDATE pilot_sponsors SET company_id = NULL WHERE id = $1`, [id]);
    } else if (body.company_id !== undefined) {
      const companyId = body.company_id.toLowerCase();
      await takeSponsorshipSlot(tx, companyId, id);
      await tx.query(`UPDATE pilot_sponsors SET company_id = $2 WHERE id = $1`, [id, companyId]);
    }
    if (body.state === 'paused') {
      await tx.query(`UPDATE pilot_invitations SET state = 'expired', ended_at = now(), end_reason = 'paused' WHERE sponsor_id = $1 AND state = 'offered'`, [id]);
    }
    return { sponsor: await viewOf(tx, id), created };
  });
}

/**
 * The sponsor behind an invitation, with its agent key opened.
 * @param ds - DataSource
 * @param box - the box sealing agent keys (undefined when PILOT_AGENT_KEY_SECRET is unset)
 * @param sponsorId - the sponsor
 * @returns the sponsor's agent (endpoint null when none is set or the key does not open)
 */
export async function loadSponsorAgent(ds: Pick<DataSource, 'query'>, box: SecretBox | undefined, sponsorId: string): Promise<SponsorAgent> {
  const [r] = (await ds.query(
    `SELECT id::text AS id, name, domains, topic, participant_brief, agent_instructions, agent_base_url, agent_model, agent_key_sealed FROM pilot_sponsors WHERE id = $1`,
    [sponsorId],
  )) as Array<Record<string, string | string[] | null>>;
  const key = r.agent_key_sealed === null || !box ? undefined : box.open(String(r.agent_key_sealed), String(r.id));
  return {
    sponsorId: String(r.id),
    name: String(r.name),
    domains: r.domains as string[],
    instructions: String(r.agent_instructions),
    brief: String(r.participant_brief),
    topic: String(r.topic),
    endpoint: r.agent_base_url === null || key === undefined ? null : { baseUrl: String(r.agent_base_url), model: String(r.agent_model), apiKey: key },
  };
}

/**
 * Counts one agent call of a sponsor, and its failure reason when it failed.
 * @param ds - DataSource
 * @param sponsorId - the sponsor
 * @param failure - why the call failed, or undefined when it succeeded
 */
export async function recordAgentCall(ds: Pick<DataSource, 'query'>, sponsorId: string, failure: string | undefined): Promise<void> {
  await ds.query(
    failure === undefined
      ? `UPDATE pilot_sponsors SET agent_calls = agent_calls + 1 WHERE id = $1`
      : `UPDATE pilot_sponsors SET agent_calls = agent_calls + 1, agent_failures = agent_failures + 1, last_agent_failure = $2, last_agent_failure_at = now() WHERE id = $1`,
    failure === undefined ? [sponsorId] : [sponsorId, failure],
  );
}
