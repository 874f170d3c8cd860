import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import { FEELINGS } from '../../shared/roleplay/feelings';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import { validateBody } from '../http/validate';
import { chargeFor } from '../payments/charge';
import { quoteFor } from '../payments/loyalty';
import type { DeliveryExtras } from '../payments/paid-work';
import { pay } from '../payments/pay';
import { sendQuote } from '../payments/quote';
import { SECRET_PENDING_NOTE, SECRET_SHOWN_NOTE, presentOpenedRoom } from './present-opened-room';
import { presentListedRoom, presentRoom } from './present-room';
import { READING_RULES } from './reading-rules';
import { ROOM_CLAIM_HEADER, isOpenerClaim } from './secret-claim';
import { createPendingRoom, getRoom, joinOpenRoom, listOpenRooms, openPaidRoom, turnsOf } from './room-store';
import {
  DEFAULT_ROOM_PROFILE,
  joinRoomRequestSchema,
  openRoomRequestSchema,
  turnRequestSchema,
  type JoinRoomRequest,
  type OpenRoomRequest,
  type TurnRequest,
} from './roleplay.schema';
import { SESSION_SECRET_HEADER, hashSessionSecret, invalidSessionSecret, newSessionSecret, sessionSecretHashFrom } from './session-secret';
import { takeTurn } from './turn.service';

/** Rooms the public open list shows at most, newest first. */
export const OPEN_LIST_LIMIT = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The role-play routes: open a room (paid), the open list, the feelings, join (free), turns (by
 * session secret) and the room's state and report.
 * @param deps - app dependencies
 * @returns the router
 */
export function roleplayRoutes(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const product = PRODUCTS.roleplay;
  const { dataSource } = deps;

  router.get(product.path, async (ctx: AppContext) => {
    sendQuote(ctx, deps, chargeFor(product));
  });

  router.post(product.path, validateBody(openRoomRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as OpenRoomRequest;
    const request = { ...body, profile: body.profile ?? DEFAULT_ROOM_PROFILE, open_to_any_partner: body.open_to_any_partner ?? false };
    const charge = await quoteFor(dataSource, product, undefined, body.wallet_address);
    // The opener's secret is minted once, in the first delivery after settlement or to a retry that
    // proves it comes from the payer: a replay rebuilt from the public chain never gets it (as with
    // bundle tokens).
    const claim = ctx.get(ROOM_CLAIM_HEADER);
    const onDelivery: DeliveryExtras = async (authorization, delivery) => {
      if (!delivery.first && !(await isOpenerClaim(authorization, claim, deps.config.payments.evmRpcUrl))) return {};
      const secret = newSessionSecret();
      const opened = await openPaidRoom(dataSource, authorization.id, hashSessionSecret(secret), PRODUCT_TERMS.roleplayUnmatchedExpiryHours);
      if (!opened) return {};
      return { session_secret: secret, secret_note: SECRET_SHOWN_NOTE, state: opened.state, expires_at: opened.expiresAt?.toISOString() ?? null };
    };
    await pay(
      ctx,
      deps,
      { charge, wallet: body.wallet_address, requestHash: canonicalHash({ path: ctx.path, body: request }), onDelivery, nonFinalNote: { secret_note: SECRET_PENDING_NOTE } },
      async (paid) => {
        if (paid.authorizationId === null) throw new Error('a role-play room is bought per call only');
        const room = await createPendingRoom(dataSource, {
          authorizationId: paid.authorizationId,
          wallet: paid.payer,
          profile: request.profile,
          openToAnyPartner: request.open_to_any_partner,
        });
        return {
          response: presentOpenedRoom(room, paid.resultId),
          // Opening a room scores nothing: the turns are scored as they come.
          summary: { profile: room.profile, score: null, passed: null, scorerVersion: 'none' },
          calibrationText: null,
        };
      },
    );
  });

  router.get('/api/roleplay/open', async (ctx: AppContext) => {
    const rooms = await listOpenRooms(dataSource, OPEN_LIST_LIMIT);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { rooms: rooms.map(presentListedRoom), limit: OPEN_LIST_LIMIT };
  });

  router.get('/api/roleplay/feelings', async (ctx: AppContext) => {
    ctx.body = { feelings: FEELINGS.map((f) => ({ id: f.id, description: f.description, cues: f.cues })), reading: READING_RULES };
  });

  router.post('/api/roleplay/join', validateBody(joinRoomRequestSchema), async (ctx: AppContext) => {
    const { room_id } = ctx.state.body as JoinRoomRequest;
    const secret = newSessionSecret();
    const joined = await joinOpenRoom(dataSource, room_id, hashSessionSecret(secret));
    if (!joined) throw await whyNotJoinable(room_id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentRoom(joined, [], 'joiner'), session_secret: secret, secret_note: SECRET_SHOWN_NOTE };
  });

  router.post('/api/roleplay/turn', validateBody(turnRequestSchema), async (ctx: AppContext) => {
    const body = ctx.state.body as TurnRequest;
    const secretHash = sessionSecretHashFrom(ctx.get(SESSION_SECRET_HEADER));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await takeTurn(deps, body, secretHash, ctx.state.reqId);
  });

  router.get('/api/roleplay/:room_id', async (ctx: AppContext) => {
    const roomId = ctx.params.room_id;
    const secretHash = sessionSecretHashFrom(ctx.get(SESSION_SECRET_HEADER));
    const found = UUID.test(roomId) ? await getRoom(dataSource, roomId, secretHash) : undefined;
    if (!found || found.room.state === 'pending') throw new AppError(404, 'room_not_found', 'No role-play room has this room_id.');
    // A secret that is sent must be right: a wrong one is refused, not quietly shown the public view.
    if (secretHash !== undefined && found.chair === null) throw invalidSessionSecret();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentRoom(found.room, await turnsOf(dataSource, roomId), found.chair ?? 'public');
  });

  async function whyNotJoinable(roomId: string): Promise<AppError> {
    const found = await getRoom(dataSource, roomId);
    const room = found?.room;
    if (!room || room.state === 'pending') return new AppError(404, 'room_not_found', 'No open role-play room has this room_id.');
    if (room.state === 'expired' || room.state === 'open') {
      return new AppError(410, 'room_expired', `This room was left unmatched for ${PRODUCT_TERMS.roleplayUnmatchedExpiryHours} hours and expired; it cannot be joined.`);
    }
    return new AppError(409, 'room_already_joined', 'This room has its two bots already; open or join another.');
  }

  return router;
}
