import { PILOT_TOPICS } from './pilot.schema';
import type { BodyOf } from '../../http/ajv';

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** The agent endpoint of a sponsor: an OpenAI-compatible chat-completions API. */
const agentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['base_url', 'api_key', 'model'],
  description:
    "The sponsor's agent: the base URL of an OpenAI-compatible chat-completions API (the service posts to <base_url>/chat/completions " +
    'through the outbound guard: http or https, ports 80 and 443, public addresses only), its API key (stored encrypted, never shown ' +
    'again) and the model name.',
  properties: {
    base_url: { type: 'string', minLength: 8, maxLength: 500, pattern: '^https?://', description: 'e.g. https://agents.example.com/v1' },
    api_key: { type: 'string', minLength: 1, maxLength: 500, description: 'Write-only: answers say only key_set.' },
    model: { type: 'string', minLength: 1, maxLength: 200 },
  },
} as const;

/**
 * POST /api/operator/aei/sponsor: creates a sponsor (no sponsor_id; name, topic and
 * participant_brief required) or changes one (sponsor_id and only the fields to change).
 */
export const sponsorRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    sponsor_id: { type: 'string', pattern: UUID_PATTERN, description: 'The sponsor to change; absent: create one.' },
    name: { type: 'string', minLength: 1, maxLength: 120, description: "The sponsor's name; never shown to participants, and flagged when an agent reply says it." },
    domains: {
      type: 'array',
      maxItems: 10,
      uniqueItems: true,
      items: { type: 'string', minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$' },
      description: "The sponsor's domains; an agent reply naming one is flagged and the name hidden from the participant.",
    },
    state: { enum: ['active', 'paused'], description: 'paused: no new invitations, and offered ones not started expire.' },
    topic: { enum: [...PILOT_TOPICS], description: "The scenario's topic, matched against participants' topics." },
    participant_brief: {
      type: 'string',
      minLength: 1,
      maxLength: 1_000,
      description: 'The situation shown to the participant when the conversation starts; it must not name the sponsor (refused if it does).',
    },
    agent_instructions: { type: 'string', maxLength: 4_000, description: "Sent to the agent as the conversation's system message (may be empty)." },
    quota_conversations: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'Conversations the sponsor pays for: invitations offered, started or stopped count; declined and expired ones do not.' },
    agent: { anyOf: [agentSchema, { type: 'null' }], description: 'The agent endpoint; null removes it (no invitations without one).' },
    company_id: {
      anyOf: [{ type: 'string', pattern: UUID_PATTERN }, { type: 'null' }],
      description:
        "The company of the company program this sponsor belongs to (the company_id its GET /api/aei/company/usage shows): the sponsor takes one of the plan's sponsorship slots. null unlinks it.",
    },
  },
  if: { not: { required: ['sponsor_id'], properties: { sponsor_id: { type: 'string' } } } },
  then: { required: ['name', 'topic', 'participant_brief'], properties: { name: { type: 'string' }, topic: { type: 'string' }, participant_brief: { type: 'string' } } },
} as const;

/** The validated sponsor request. */
export type SponsorRequest = BodyOf<typeof sponsorRequestSchema>;

const count = { type: 'integer', minimum: 0 } as const;

/** One sponsor as the operator reads it. */
export const sponsorViewSchema = {
  type: 'object',
  required: ['sponsor_id', 'company_id', 'name', 'domains', 'state', 'topic', 'participant_brief', 'quota_conversations', 'agent', 'usage'],
  properties: {
    sponsor_id: { type: 'string', format: 'uuid' },
    company_id: { type: ['string', 'null'], description: 'The company whose sponsorship slot this sponsor takes, or null.' },
    name: { type: 'string' },
    domains: { type: 'array', items: { type: 'string' } },
    state: { enum: ['active', 'paused'] },
    topic: { type: 'string' },
    participant_brief: { type: 'string' },
    agent_instructions: { type: 'string' },
    quota_conversations: count,
    agent: {
      anyOf: [
        {
          type: 'object',
          required: ['base_url', 'model', 'key_set'],
          properties: {
            base_url: { type: 'string' },
            model: { type: 'string' },
            key_set: { const: true, description: 'The key itself is never shown.' },
            calls: count,
            failures: count,
            last_failure: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'timeout, rate_limited, provider_error, malformed, unreachable, or an outbound-guard reason (address, port, scheme, ...).' },
            last_failure_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
          },
        },
        { type: 'null' },
      ],
    },
    usage: {
      type: 'object',
      description: "The sponsor's access usage: invitations by state, conversations, agent turns and identity flags.",
      properties: {
        invitations_offered: count,
        open: count,
        declined: count,
        expired: count,
        conversations_started: count,
        conversations_stopped: count,
        quota_used: count,
        quota_left: count,
        agent_turns: count,
        identity_flags: count,
      },
    },
  },
} as const;
