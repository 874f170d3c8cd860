import type { DataSource } from 'typeorm';
import { agentPlan, QUOTE_TTL_SECONDS, quoteTerms, type AgentPlan } from '../../../shared/catalog/agent-plans';
import { getInstall } from '../../../shared/catalog/install-store';
import { AppError, ValidationError } from '../../../shared/errors';
import { walletKey } from '../../payments/bundle-credit/wallet-key';
import { getInstallPlan } from './plan-activation';
import type { QuoteRequest } from './plans.schema';
import { createQuote, type QuoteKind, type QuoteRow } from './quote-store';

function refuseField(path: string, rule: string, message: string, code?: string): ValidationError {
  return new ValidationError([{ path, rule, message }], undefined, code);
}

/**
 * Quotes a plan for a verified install, from the live catalog: a new plan (none active), a
 * renewal of the current plan, or an upgrade to a larger one (the difference). The quote is
 * stored with its expiry; paying it is a separate call.
 * @param dataSource - the database
 * @param kind - new, renewal or upgrade
 * @param body - the validated request (the schema of that kind)
 * @returns the stored quote
 * @throws ValidationError install_not_found or a plan that is not an upgrade; AppError 409
 *   install_not_verified, plan_already_active or no_plan
 */
export async function quotePlan(dataSource: DataSource, kind: QuoteKind, body: QuoteRequest): Promise<QuoteRow> {
  const install = await getInstall(dataSource, body.workflow_id.toLowerCase());
  if (!install) throw refuseField('/workflow_id', 'exists', 'is not a free install workflow', 'install_not_found');
  if (install.state !== 'verified') {
    throw new AppError(409, 'install_not_verified', 'Plans are sold for verified installs only; finish the free install workflow first.', { details: { state: install.state } });
  }
  const current = await getInstallPlan(dataSource, install.id);
  const currentPlan = current && (agentPlan(current.planId) as AgentPlan);
  let target: AgentPlan;
  if (kind === 'new') {
    if (current) throw new AppError(409, 'plan_already_active', 'This install has a plan already: quote a renewal or an upgrade.', { details: { plan_id: current.planId } });
    target = agentPlan(body.plan_id as string) as AgentPlan;
  } else {
    if (!currentPlan) throw new AppError(409, 'no_plan', 'This install has no plan yet: quote a new plan at POST /api/catalog/agent/quotes.');
    target = kind === 'renewal' ? currentPlan : (agentPlan(body.plan_id as string) as AgentPlan);
    if (kind === 'upgrade' && target.rank <= currentPlan.rank) {
      throw refuseField('/plan_id', 'upgrade', `must be a larger plan than the current ${currentPlan.id}`);
    }
  }
  const terms = quoteTerms(kind, target, kind === 'upgrade' ? currentPlan : undefined);
  return createQuote(dataSource, {
    kind,
    workflowId: install.id,
    planId: target.id,
    fromPlanId: kind === 'upgrade' ? (currentPlan as AgentPlan).id : null,
    wallet: walletKey(body.wallet_address),
    usdcUnits: terms.price.usdcUnits,
    lamports: terms.price.lamports,
    credits: terms.credits,
    periodDays: terms.periodDays,
    ttlSeconds: QUOTE_TTL_SECONDS,
  });
}
