import type { DataSource } from 'typeorm';
import type { AuthorizationRow } from '../../shared/payments/authorization-store';
import { canonicalHash } from '../../shared/payments/canonical-hash';
import { PRODUCTS, PRODUCT_TERMS } from '../../shared/products';
import type { AppDeps } from '../http/deps';
import { quoteFor } from '../payments/loyalty';
import type { PaidProduct } from '../payments/paid-product';
import type { DeliveryExtras } from '../payments/paid-work';
import { SECRET_PENDING_NOTE, SECRET_SHOWN_NOTE, presentOpenedRoom } from './present-opened-room';
import { createPendingRoom, getRoom, openPaidRoom } from './room-store';
import { DEFAULT_ROOM_PROFILE, openRoomRequestSchema, type OpenRoomRequest } from './roleplay.schema';
import { ROOM_CLAIM_HEADER, isOpenerClaim } from './secret-claim';
import { hashSessionSecret, newSessionSecret } from './session-secret';

/**
 * Opening a role-play room as every transport sells it. The opener's session secret is in the
 * delivered body (the HTTP 200, the MCP tool result), minted once: in the first delivery after
 * settlement, or to a retry that proves it comes from the payer (X-ROLEPLAY-CLAIM on the carrying
 * request); a replay rebuilt from the public chain never gets it (as with bundle tokens).
 * @param deps - app dependencies
 * @returns the paid product
 */
export function roleplayProduct(deps: AppDeps): PaidProduct {
  const product = PRODUCTS.roleplay;
  const { dataSource } = deps;
  return {
    product,
    requestSchema: openRoomRequestSchema,
    quote: ({ wallet_address }) => quoteFor(dataSource, product, undefined, wallet_address),
    async prepare(sent, call) {
      const body = sent as OpenRoomRequest;
      const request = { ...body, profile: body.profile ?? DEFAULT_ROOM_PROFILE, open_to_any_partner: body.open_to_any_partner ?? false };
      const charge = await quoteFor(dataSource, product, undefined, body.wallet_address);
      const claim = call.header(ROOM_CLAIM_HEADER);
      const onDelivery: DeliveryExtras = async (authorization, delivery) => {
        if (!delivery.first && !(await isOpenerClaim(authorization, claim, deps.config.payments.evmRpcUrl))) return currentStateOf(dataSource, authorization);
        const secret = newSessionSecret();
        const opened = await openPaidRoom(dataSource, authorization.id, hashSessionSecret(secret), PRODUCT_TERMS.roleplayUnmatchedExpiryHours);
        if (!opened) return {};
        return { session_secret: secret, secret_note: SECRET_SHOWN_NOTE, state: opened.state, expires_at: opened.expiresAt?.toISOString() ?? null };
      };
      return {
        request: {
          charge,
          wallet: body.wallet_address,
          requestHash: canonicalHash({ path: product.path, body: request }),
          onDelivery,
          nonFinalNote: { secret_note: SECRET_PENDING_NOTE },
        },
        async work(paid) {
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
      };
    },
  };
}

// A replay shows the room as it is now: the stored response was made while the room was pending.
async function currentStateOf(db: DataSource, authorization: AuthorizationRow): Promise<Record<string, unknown>> {
  const roomId = (authorization.response as { room_id?: unknown } | null)?.room_id;
  const found = typeof roomId === 'string' ? await getRoom(db, roomId) : undefined;
  return found ? { state: found.room.state, expires_at: found.room.expiresAt?.toISOString() ?? null } : {};
}
