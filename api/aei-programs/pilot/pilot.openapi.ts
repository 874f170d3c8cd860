import type { OperationSpec } from '../../http/openapi/operation';
import { PILOT_TOKEN, tokenPattern } from '../../http/program-token';
import { COMMON_RESPONSES, credentialResponses, errorBodySchema } from '../../http/responses.schema';
import { PILOT_CONSENT, PILOT_MODEL_CONSENT } from '../consent-texts';
import { SCALE_MAX, SCALE_MIN } from '../rating-scales';
import { MIN_PEOPLE } from '../../../shared/agreement/suppression';
import { INVITATION_TTL_HOURS, IDLE_STOP_HOURS } from '../../../shared/pilot/invitations';
import { MAX_REPLIES } from './conversation.store';
import { PILOT_LIMITS, PILOT_WINDOW_SECONDS } from './pilot-rate-limit';
import {
  emptyRequestSchema,
  pilotEnrollRequestSchema,
  pilotFeedbackRequestSchema,
  pilotModelConsentRequestSchema,
  pilotPreferencesRequestSchema,
  pilotReplyRequestSchema,
} from './pilot.schema';
import { sponsorRequestSchema, sponsorViewSchema } from './sponsor.schema';

const PILOT =
  'Pilot: volunteers hold short conversations with AI agents of sponsoring companies and rate each agent turn on four scales ' +
  `(how human, how warm, how direct, how hesitant; integers ${SCALE_MIN} to ${SCALE_MAX}). Blind: answers never name the sponsor, its ` +
  'profile or its endpoint, and an agent turn naming the sponsor or its domains is shown with the name hidden and flagged for operators. ' +
  `The participant token (${PILOT_TOKEN.header}) is shown once and stored only as its SHA-256; a missing, malformed, unknown or deleted ` +
  'token is 401 program_token_required or program_token_invalid, never 404.';

const STATES =
  'Invitation states: offered (by the repeatable offering job, to active participants inside their chosen days and UTC hours, below their ' +
  'weekly count, from an active sponsor with an agent endpoint and quota left, on one of their topics) -> declined (the participant), ' +
  `expired (not started within ${INVITATION_TTL_HOURS} h, by the repeatable expiry job; or at once when the participant pauses or the ` +
  `sponsor is paused) or started (a conversation) -> stopped (the participant, the ${MAX_REPLIES}-reply limit, or ${IDLE_STOP_HOURS} h ` +
  'without a turn). Declined, expired and stopped are final. One invitation at most is open (offered or started) per participant.';

const TOKEN_HEADER = [
  { name: PILOT_TOKEN.header, description: 'The participant token from POST /api/aei/pilot/enroll.', schema: { type: 'string', pattern: tokenPattern(PILOT_TOKEN) }, required: true },
] as const;

const UNAUTHORIZED = { description: 'program_token_required (no header) or program_token_invalid (malformed, unknown or deleted token).', schema: errorBodySchema };

const participantSchema = {
  type: 'object',
  required: ['state', 'consents', 'preferences'],
  properties: {
    state: { enum: ['active', 'paused'] },
    enrolled_at: { type: 'string', format: 'date-time' },
    paused_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    consents: {
      type: 'object',
      description: 'Each consent with the version accepted and when; model is null until given (and after it is withdrawn).',
      properties: { pilot: { type: 'object' }, model: { anyOf: [{ type: 'object' }, { type: 'null' }] } },
    },
    preferences: { type: 'object', description: 'topics (empty: any), conversations_per_week, times {days, from_hour_utc, to_hour_utc}, set_at.' },
  },
} as const;

const invitationSchema = {
  type: 'object',
  description: 'An invitation: its id, state, topic and times; never the sponsor.',
  properties: {
    invitation_id: { type: 'string', format: 'uuid' },
    state: { enum: ['offered', 'declined', 'started', 'stopped', 'expired'] },
    topic: { type: 'string' },
    offered_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
    started_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    ended_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    end_reason: { anyOf: [{ enum: ['participant', 'turn_limit', 'idle', 'not_started', 'paused'] }, { type: 'null' }] },
  },
} as const;

const conversationSchema = {
  ...invitationSchema,
  description: 'A started invitation: the brief (the situation to play), the turns with their delays, and which agent turns were rated.',
  properties: {
    ...invitationSchema.properties,
    brief: { type: 'string' },
    max_replies: { const: MAX_REPLIES },
    turns: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          turn_id: { type: 'string', format: 'uuid' },
          role: { enum: ['participant', 'agent'] },
          text: { type: 'string' },
          delay_ms: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: "The participant's delay before the turn (participant turns)." },
          created_at: { type: 'string', format: 'date-time' },
          rated: { type: 'boolean' },
        },
      },
    },
  },
} as const;

const meSchema = {
  type: 'object',
  required: ['participant', 'invitation', 'conversation'],
  properties: {
    participant: participantSchema,
    invitation: { anyOf: [invitationSchema, { type: 'null' }], description: 'The invitation waiting for an answer, if any.' },
    conversation: { anyOf: [conversationSchema, { type: 'null' }], description: 'The conversation in progress, else the last one.' },
  },
} as const;

const CONFLICT = (what: string) => ({ description: what, schema: errorBodySchema });
const LIMITED = { description: `pilot_rate_limited (Retry-After): at most ${PILOT_LIMITS.reply} replies and ${PILOT_LIMITS.feedback} feedback posts per ${PILOT_WINDOW_SECONDS} s per participant.`, schema: errorBodySchema };

const participantOp = (
  method: 'post' | 'get' | 'delete',
  path: string,
  operationId: string,
  summary: string,
  description: string,
  responses: OperationSpec['responses'],
  body?: object,
): OperationSpec => ({
  method,
  path,
  operationId,
  summary,
  description: `${PILOT} ${description}`,
  tags: ['programs'],
  headers: TOKEN_HEADER,
  ...(body ? { body } : {}),
  responses: { ...responses, '401': UNAUTHORIZED, ...(body ? COMMON_RESPONSES : { '500': COMMON_RESPONSES['500'] }) },
});

const stateResponse = { '200': { description: 'The participant after the change.', schema: { type: 'object', properties: { participant: participantSchema } } } };

/** OpenAPI specs of the pilot: the participant side and the operator's sponsors and evidence. */
export const pilotOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/aei/pilot/consent',
    operationId: 'getPilotConsent',
    summary: 'The pilot consent and the model consent, each with its version, the rating scales and the topics.',
    description: `${PILOT} Accept the pilot consent (now ${PILOT_CONSENT.version}) with POST /api/aei/pilot/enroll; the model consent (now ${PILOT_MODEL_CONSENT.version}) separately with POST /api/aei/pilot/model-consent.`,
    tags: ['programs'],
    responses: { '200': { description: 'The consent texts.', schema: { type: 'object', properties: { pilot: { type: 'object' }, model: { type: 'object' }, scales: { type: 'array' }, topics: { type: 'array' } } } }, '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/aei/pilot/enroll',
    operationId: 'enrollPilot',
    summary: 'Consent and enroll: the participant token, shown once.',
    description: `${PILOT} "consent": true and the consent_version accepted; a missing or false consent is 422 consent_required, another version 422 consent_version_not_current. Nothing is stored without consent. The participant starts active, with default preferences (any topic, 2 conversations a week, any time) and without model consent.`,
    tags: ['programs'],
    body: pilotEnrollRequestSchema,
    responses: {
      '201': { description: 'Enrolled.', schema: { type: 'object', required: ['token', 'participant'], properties: { token: { type: 'string', pattern: tokenPattern(PILOT_TOKEN) }, header: { const: PILOT_TOKEN.header }, participant: participantSchema, scales: { type: 'array' } } } },
      ...COMMON_RESPONSES,
    },
  },
  participantOp('get', '/api/aei/pilot/me', 'getPilotMe', "The participant's state, consents, preferences, waiting invitation and conversation.", STATES, { '200': { description: 'The participant.', schema: meSchema } }),
  participantOp(
    'delete',
    '/api/aei/pilot/me',
    'deletePilotMe',
    'Delete everything of the participant, and the token.',
    'Hard delete, in one transaction: the participant row (token hash, consents, preferences), every invitation, every turn (replies with their delays, and the agent turns), all feedback, and the wording-review items made of the replies with every rating on them. The answer counts what was deleted; one anonymous erasure count is all that remains. The token answers 401 from then on.',
    { '200': { description: 'What was deleted.', schema: { type: 'object', properties: { deleted: { type: 'object', additionalProperties: { type: ['integer', 'boolean'] } }, remains: { type: 'string' } } } } },
  ),
  participantOp('post', '/api/aei/pilot/preferences', 'setPilotPreferences', 'Set topics, conversations per week and times.', 'Fields absent keep their values; the offering job reads them at its next run.', stateResponse, pilotPreferencesRequestSchema),
  participantOp(
    'post',
    '/api/aei/pilot/model-consent',
    'setPilotModelConsent',
    'Give or withdraw the model consent (calibration use), separately from the pilot consent.',
    "Without it nothing of the participant's enters calibration: their replies are not wording-review items and their ratings are not in the calibration set or the evidence's agreement figures. Withdrawing deletes at once the wording-review items made of their replies (with the ratings on them).",
    stateResponse,
    pilotModelConsentRequestSchema,
  ),
  participantOp('post', '/api/aei/pilot/pause', 'pausePilot', 'Pause: no invitations while paused.', 'An invitation offered but not started expires at once (end_reason paused); a started conversation may still be finished or stopped.', stateResponse, emptyRequestSchema),
  participantOp('post', '/api/aei/pilot/resume', 'resumePilot', 'Resume: invitations may be offered again.', 'From the next run of the offering job.', stateResponse, emptyRequestSchema),
  participantOp(
    'post',
    '/api/aei/pilot/invitation/decline',
    'declinePilotInvitation',
    'Decline the waiting invitation.',
    STATES,
    { '200': { description: 'The declined invitation.', schema: { type: 'object', properties: { invitation: invitationSchema } } }, '409': CONFLICT('no_invitation: none is waiting (never offered, already answered, or expired).') },
    emptyRequestSchema,
  ),
  participantOp(
    'post',
    '/api/aei/pilot/invitation/start',
    'startPilotInvitation',
    'Start the waiting invitation: a conversation with a sponsored agent scenario.',
    `${STATES} The answer holds the brief (the situation to play); the participant writes first with POST /api/aei/pilot/reply.`,
    { '200': { description: 'The conversation.', schema: { type: 'object', properties: { conversation: conversationSchema } } }, '409': CONFLICT('no_invitation: none is waiting.') },
    emptyRequestSchema,
  ),
  participantOp(
    'post',
    '/api/aei/pilot/reply',
    'postPilotReply',
    "The participant's turn, and the agent's answer.",
    "The delay before the reply (from the agent's previous turn, or the start, to the reply's arrival, on the database clock) is recorded with it as human timing data. The agent is asked over the OpenAI-compatible chat-completions protocol through the outbound guard; when it cannot answer (unreachable, refused address, timeout, error), the answer is 503 agent_unavailable and nothing of the reply is stored. " +
      `After ${MAX_REPLIES} replies the conversation stops (turn_limit).`,
    {
      '201': { description: 'Recorded: the reply with its delay, the agent turn (sponsor names hidden) and the conversation state.', schema: { type: 'object', properties: { reply: { type: 'object' }, agent: { type: 'object' }, conversation: { type: 'object' } } } },
      '409': CONFLICT('no_conversation (none started) or turn_conflict (another reply was recorded meanwhile).'),
      '429': LIMITED,
      '503': CONFLICT('agent_unavailable (Retry-After): the reply was not recorded.'),
    },
    pilotReplyRequestSchema,
  ),
  participantOp(
    'post',
    '/api/aei/pilot/conversation/stop',
    'stopPilotConversation',
    'Stop the conversation.',
    STATES,
    { '200': { description: 'The stopped conversation.', schema: { type: 'object', properties: { conversation: conversationSchema } } }, '409': CONFLICT('no_conversation: none is started.') },
    emptyRequestSchema,
  ),
  participantOp(
    'post',
    '/api/aei/pilot/feedback',
    'postPilotFeedback',
    "Rate one of the agent's turns on the four scales, once, with an optional comment.",
    'Any agent turn of the participant\'s conversations, started or stopped. enters_calibration says whether the participant holds the model consent now. The comment is kept with the feedback and never appears in any report.',
    {
      '201': { description: 'Recorded.', schema: { type: 'object', properties: { turn_id: { type: 'string' }, recorded: { const: true }, enters_calibration: { type: 'boolean' } } } },
      '409': CONFLICT('already_rated: this turn was rated before (the first stands).'),
      '429': LIMITED,
    },
    pilotFeedbackRequestSchema,
  ),
  {
    method: 'get',
    path: '/api/operator/aei/sponsor',
    operationId: 'listPilotSponsors',
    summary: 'Pilot sponsors with their quotas, agent endpoints (never the key) and usage.',
    description: 'Usage counts invitations by state, conversations, agent turns, identity flags and agent calls with the last failure reason.',
    tags: ['operators'],
    security: 'operatorToken',
    responses: { '200': { description: 'The sponsors.', schema: { type: 'object', properties: { sponsors: { type: 'array', items: sponsorViewSchema } } } }, ...credentialResponses('operator'), '500': COMMON_RESPONSES['500'] },
  },
  {
    method: 'post',
    path: '/api/operator/aei/sponsor',
    operationId: 'savePilotSponsor',
    summary: 'Create a sponsor, or change one: pause, quotas, scenario, agent endpoint.',
    description:
      'Without sponsor_id: creates (name, topic, participant_brief required; 201). With sponsor_id: changes the fields sent (200). The agent api_key is stored ' +
      'encrypted (AES-256-GCM under PILOT_AGENT_KEY_SECRET) and never shown again or logged. A brief naming the sponsor is 422 brief_names_sponsor; a base_url ' +
      'with credentials, a query or another scheme is 422. Whether the address is public is checked by the outbound guard at every call (a refused address ' +
      'shows as last_failure address). Pausing expires the sponsor\'s invitations not started.',
    tags: ['operators'],
    security: 'operatorToken',
    body: sponsorRequestSchema,
    responses: {
      '200': { description: 'Changed.', schema: { type: 'object', properties: { sponsor: sponsorViewSchema } } },
      '201': { description: 'Created.', schema: { type: 'object', properties: { sponsor: sponsorViewSchema } } },
      '404': { description: 'sponsor_unknown.', schema: errorBodySchema },
      '409': { description: 'sponsor_name_taken.', schema: errorBodySchema },
      '503': { description: 'agent_key_secret_unset: the server has no PILOT_AGENT_KEY_SECRET, so no agent key can be stored.', schema: errorBodySchema },
      ...credentialResponses('operator'),
      ...COMMON_RESPONSES,
    },
  },
  {
    method: 'get',
    path: '/api/operator/aei-pilot-evidence',
    operationId: 'getPilotEvidence',
    summary: 'Pilot aggregates: participants, conversations, ratings and agreement with the engine per sponsor.',
    description: `Every figure resting on fewer than ${MIN_PEOPLE} distinct participants is null (suppressed: true). No free text. Agreement uses only ratings of participants holding the model consent. definitions explains each figure.`,
    tags: ['operators'],
    security: 'operatorToken',
    responses: { '200': { description: 'The evidence.', schema: { type: 'object', required: ['min_people', 'participants', 'sponsors', 'definitions'], properties: { min_people: { const: MIN_PEOPLE }, participants: { type: 'object' }, sponsors: { type: 'array' }, definitions: { type: 'object' } } } }, ...credentialResponses('operator'), '500': COMMON_RESPONSES['500'] },
  },
];
