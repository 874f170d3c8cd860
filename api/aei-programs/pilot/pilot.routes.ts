import type Router from '@koa/router';
import type { Next } from 'koa';
import { AppError } from '../../../shared/errors';
import { createOutboundGuard, DEFAULT_OUTBOUND_POLICY } from '../../../shared/http/outbound-guard';
import { createSecretBox } from '../../../shared/secrets/secret-box';
import type { AppContext, AppState } from '../../http/context';
import { createRouter } from '../../http/create-router';
import type { AppDeps } from '../../http/deps';
import { PILOT_TOKEN, presentedTokenHash, programTokenRefused } from '../../http/program-token';
import { validateBody } from '../../http/validate';
import { PILOT_CONSENT, PILOT_MODEL_CONSENT } from '../consent-texts';
import { presentScales } from '../rating-scales';
import { currentConversation, declineInvitation, MAX_REPLIES, openInvitation, recordExchange, recordFeedback, replyContext, startInvitation, stopConversation } from './conversation.store';
import { blindReply } from './identity-flag';
import {
  enrollParticipant,
  eraseParticipant,
  findParticipant,
  pauseParticipant,
  resumeParticipant,
  setModelConsent,
  setPreferences,
  type Participant,
} from './participant.store';
import { takePilotSlot } from './pilot-rate-limit';
import {
  emptyRequestSchema,
  PILOT_TOPICS,
  pilotEnrollRequestSchema,
  pilotFeedbackRequestSchema,
  pilotModelConsentRequestSchema,
  pilotPreferencesRequestSchema,
  pilotReplyRequestSchema,
  refineConsent,
  type PilotFeedbackRequest,
  type PilotModelConsentRequest,
  type PilotPreferencesRequest,
  type PilotReplyRequest,
} from './pilot.schema';
import { askSponsorAgent } from './sponsor-agent';
import { AGENT_KEY_PURPOSE, loadSponsorAgent, recordAgentCall } from './sponsor.store';

/** How long a participant's reply waits for the sponsor's agent. */
export const AGENT_TIMEOUT_MS = 5_000;

// The participant the token of a request found, kept beside the context.
const participants = new WeakMap<AppContext, Participant>();
const participantOf = (ctx: AppContext) => participants.get(ctx)!;

function presentParticipant(p: Participant) {
  return {
    state: p.state,
    enrolled_at: p.consentedAt.toISOString(),
    paused_at: p.pausedAt?.toISOString() ?? null,
    consents: {
      pilot: { version: p.consentVersion, given_at: p.consentedAt.toISOString() },
      model: p.modelConsentVersion === null ? null : { version: p.modelConsentVersion, given_at: p.modelConsentAt!.toISOString() },
    },
    preferences: {
      topics: p.topics,
      conversations_per_week: p.perWeek,
      times: { days: p.days, from_hour_utc: p.hourFrom, to_hour_utc: p.hourTo },
      set_at: p.preferencesAt?.toISOString() ?? null,
    },
  };
}

/**
 * The pilot's participant side (`/api/aei/pilot/*`, header `X-AEI-PILOT-TOKEN`): enrolment with a
 * versioned consent, the participant's state and data, preferences, the separate model consent,
 * pause and resume, invitations, the conversation with a sponsor's agent (blind, through the
 * outbound guard), and feedback on the agent's turns.
 * @param deps - app dependencies
 * @returns the router
 */
export function pilotRoutes(deps: AppDeps): Router<AppState> {
  const router = createRouter();
  const ds = deps.dataSource;
  const prefix = deps.config.redis.queuePrefix;
  const secret = deps.config.pilot.agentKeySecret;
  const box = secret === undefined ? undefined : createSecretBox(secret, AGENT_KEY_PURPOSE);
  const guard = createOutboundGuard({ ...DEFAULT_OUTBOUND_POLICY, allowAddresses: deps.config.outbound.allowAddresses, allowPorts: deps.config.outbound.allowPorts });

  // Every refusal is the same 401 for a missing, malformed, unknown or deleted token.
  const requireParticipant = async function requireParticipant(ctx: AppContext, next: Next): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const hash = presentedTokenHash(PILOT_TOKEN, ctx.get(PILOT_TOKEN.header));
    const participant = await findParticipant(ds, hash);
    if (!participant) throw programTokenRefused(PILOT_TOKEN, true);
    participants.set(ctx, participant);
    await next();
  };

  const meBody = async (p: Participant) => {
    const open = await openInvitation(ds, p.id);
    const current = await currentConversation(ds, p.id);
    // The sponsor's id stays inside: a participant never learns who is behind an agent.
    const invitation = open && open.state === 'offered' ? (({ sponsorId: _hidden, ...view }) => view)(open) : null;
    return {
      participant: presentParticipant(p),
      invitation,
      conversation: current ? { ...current.conversation, turns: current.turns } : null,
    };
  };

  router.get('/api/aei/pilot/consent', async (ctx: AppContext) => {
    ctx.body = { pilot: PILOT_CONSENT, model: PILOT_MODEL_CONSENT, scales: presentScales(), topics: [...PILOT_TOPICS] };
  });

  router.post('/api/aei/pilot/enroll', validateBody(pilotEnrollRequestSchema, { refine: refineConsent(PILOT_CONSENT.version) }), async (ctx: AppContext) => {
    const { participant, token } = await enrollParticipant(ds, PILOT_CONSENT.version);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { token, header: PILOT_TOKEN.header, participant: presentParticipant(participant), scales: presentScales() };
  });

  router.get('/api/aei/pilot/me', requireParticipant, async (ctx: AppContext) => {
    ctx.body = await meBody(participantOf(ctx));
  });

  router.delete('/api/aei/pilot/me', requireParticipant, async (ctx: AppContext) => {
    const deleted = await eraseParticipant(ds, participantOf(ctx).id);
    // Deleted by a concurrent request between the lookup and here: the token is already gone.
    if (!deleted) throw programTokenRefused(PILOT_TOKEN, true);
    ctx.body = { deleted: { ...deleted, token: true }, remains: 'One anonymous count of deletions; nothing that identifies you or holds your text.' };
  });

  // Bodies are checked before the token, as on every other path: a malformed request is 422 whoever sends it.
  router.post('/api/aei/pilot/preferences', validateBody(pilotPreferencesRequestSchema), requireParticipant, async (ctx: AppContext) => {
    const prefs = ctx.state.body as PilotPreferencesRequest;
    if (prefs.times && prefs.times.from_hour_utc >= prefs.times.to_hour_utc) {
      throw new AppError(422, 'validation_failed', 'times.from_hour_utc must be before times.to_hour_utc.', {
        details: { fields: [{ path: '/times/to_hour_utc', rule: 'after', message: 'must be greater than from_hour_utc' }] },
      });
    }
    ctx.body = { participant: presentParticipant(await setPreferences(ds, participantOf(ctx).id, prefs)) };
  });

  router.post(
    '/api/aei/pilot/model-consent',
    validateBody(pilotModelConsentRequestSchema, { refine: refineConsent(PILOT_MODEL_CONSENT.version) }),
    requireParticipant,
    async (ctx: AppContext) => {
      const body = ctx.state.body as PilotModelConsentRequest;
      const { participant, itemsWithdrawn } = await setModelConsent(ds, participantOf(ctx).id, body.consent ? PILOT_MODEL_CONSENT.version : null);
      ctx.body = { participant: presentParticipant(participant), ...(body.consent ? {} : { withdrawn: { wording_review_items: itemsWithdrawn } }) };
    },
  );

  router.post('/api/aei/pilot/pause', validateBody(emptyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    ctx.body = { participant: presentParticipant(await pauseParticipant(ds, participantOf(ctx).id)) };
  });

  router.post('/api/aei/pilot/resume', validateBody(emptyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    ctx.body = { participant: presentParticipant(await resumeParticipant(ds, participantOf(ctx).id)) };
  });

  router.post('/api/aei/pilot/invitation/decline', validateBody(emptyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    ctx.body = { invitation: await declineInvitation(ds, participantOf(ctx).id) };
  });

  router.post('/api/aei/pilot/invitation/start', validateBody(emptyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    const p = participantOf(ctx);
    await startInvitation(ds, p.id);
    const current = (await currentConversation(ds, p.id))!;
    ctx.body = { conversation: { ...current.conversation, turns: current.turns } };
  });

  router.post('/api/aei/pilot/reply', validateBody(pilotReplyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    const { text } = ctx.state.body as PilotReplyRequest;
    const p = participantOf(ctx);
    const context = await replyContext(ds, p.id);
    await takePilotSlot(deps.redis, prefix, 'reply', p.id);
    const sponsor = await loadSponsorAgent(ds, box, context.sponsorId);
    const answer = await askSponsorAgent(guard, AGENT_TIMEOUT_MS, sponsor, [...context.turns, { role: 'participant', text }]);
    await recordAgentCall(ds, sponsor.sponsorId, answer.ok ? undefined : answer.reason);
    if (!answer.ok) {
      // Which agent failed, and why, is the operator's to read (GET /api/operator/aei/sponsor); the participant's reply is not kept.
      ctx.state.log.warn({ sponsor: sponsor.sponsorId, reason: answer.reason }, 'pilot agent unavailable');
      throw new AppError(503, 'agent_unavailable', 'The agent could not answer just now; your reply was not recorded. Send it again in a moment, or stop the conversation.', {
        headers: { 'Retry-After': '30' },
      });
    }
    const shown = blindReply(answer.text, sponsor);
    const recorded = await recordExchange(ds, p.id, context, text, shown);
    ctx.status = 201;
    ctx.body = {
      reply: { turn_id: recorded.replyTurnId, delay_ms: context.delayMs },
      agent: { turn_id: recorded.agentTurnId, text: shown.text },
      conversation: { conversation_id: context.invitationId, state: recorded.stopped ? 'stopped' : 'started', replies_left: Math.max(0, MAX_REPLIES - context.replies - 1) },
    };
  });

  router.post('/api/aei/pilot/conversation/stop', validateBody(emptyRequestSchema), requireParticipant, async (ctx: AppContext) => {
    const p = participantOf(ctx);
    await stopConversation(ds, p.id);
    const current = (await currentConversation(ds, p.id))!;
    ctx.body = { conversation: { ...current.conversation, turns: current.turns } };
  });

  router.post('/api/aei/pilot/feedback', validateBody(pilotFeedbackRequestSchema), requireParticipant, async (ctx: AppContext) => {
    const body = ctx.state.body as PilotFeedbackRequest;
    const p = participantOf(ctx);
    await takePilotSlot(deps.redis, prefix, 'feedback', p.id);
    await recordFeedback(ds, p.id, body.turn_id.toLowerCase(), body.ratings, body.comment);
    ctx.status = 201;
    ctx.body = { turn_id: body.turn_id.toLowerCase(), recorded: true, enters_calibration: p.modelConsentAt !== null };
  });

  return router;
}
