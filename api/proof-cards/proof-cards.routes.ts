import { createRouter } from '../http/create-router';
import Router from '@koa/router';
import { AppError } from '../../shared/errors';
import { readEvidenceSnapshot, refreshEvidenceSnapshot, type EvidenceSnapshot } from '../../shared/proof-cards/evidence-store';
import { PRODUCTS } from '../../shared/products';
import type { AppContext, AppState } from '../http/context';
import type { AppDeps } from '../http/deps';
import type { OperationSpec } from '../http/openapi/operation';
import { validateQuery } from '../http/validate';
import { paymentMethodsOf } from '../payments/pay';
import { buildCard, buildCardList, cardSources, type CardContext } from './build-cards';
import { cardQuerySchema, type CardQuery } from './proof-cards.schema';
import { renderCardPage } from './render-html';
import { renderCardMarkdown } from './render-markdown';
import { requestOrigin } from '../http/public-origin';

/** A stored snapshot older than this many refresh intervals means the job is not running: rebuild on demand. */
const STALE_AFTER_INTERVALS = 3;

/**
 * The proof cards: one per paid product this server serves, built from the catalog, the live
 * price and the evidence snapshot the maintenance job keeps.
 * @param deps - app dependencies
 * @param operations - every operation the service serves (each card's request schema is its POST operation's body)
 * @returns the router
 */
export function proofCardRoutes(deps: AppDeps, operations: readonly OperationSpec[]): Router<AppState> {
  const router = createRouter();
  const sources = cardSources(operations);
  const productIds = Object.values(PRODUCTS).map((p) => p.id);
  const { windowDays, refreshEveryMs } = deps.config.proofCards;

  const snapshot = async (): Promise<EvidenceSnapshot> => {
    const stored = await readEvidenceSnapshot(deps.dataSource);
    const fresh = stored && stored.window.days === windowDays && Date.now() - Date.parse(stored.generated_at) <= STALE_AFTER_INTERVALS * refreshEveryMs;
    return fresh ? stored : refreshEvidenceSnapshot(deps.dataSource, productIds, windowDays);
  };
  const cardContext = (ctx: AppContext): CardContext => ({
    origin: requestOrigin(deps.config.payments, ctx),
    quotedAt: new Date().toISOString(),
    network: deps.network.current(),
    payments: deps.config.payments,
    methods: paymentMethodsOf(deps),
  });

  router.get('/api/proof-cards', async (ctx: AppContext) => {
    ctx.body = buildCardList(sources, await snapshot(), cardContext(ctx));
    await deps.evidence.viewed({ canary: ctx.state.canary, log: ctx.state.log }, sources.map((s) => s.product.id));
  });

  router.get('/api/proof-cards/:slug', validateQuery(cardQuerySchema), async (ctx: AppContext) => {
    const { format } = ctx.state.query as CardQuery;
    const source = sources.find((s) => s.product.id === ctx.params.slug);
    if (!source) throw new AppError(404, 'proof_card_not_found', 'No paid product has this slug; GET /api/proof-cards lists every card.');
    const card = buildCard(source, await snapshot(), cardContext(ctx));
    if (format === 'markdown') {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = renderCardMarkdown(card);
    } else if (format === 'html') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderCardPage(card, { solRail: Boolean(deps.config.payments.treasury.solana) });
    } else {
      ctx.body = card;
    }
    await deps.evidence.viewed({ canary: ctx.state.canary, log: ctx.state.log }, [source.product.id]);
  });

  return router;
}
