import { expect } from 'chai';
import { AGENT_PLAN_PRODUCT, AGENT_PLANS, agentPlan, quoteTerms } from '../../../../shared/catalog/agent-plans';

describe('agent plans', function () {
  const starter = agentPlan('embed-starter')!;
  const growth = agentPlan('embed-growth')!;

  it('prices every plan at the prepaid bundle rate per credit, in integers', function () {
    expect(AGENT_PLANS.map((p) => [p.id, p.credits, p.price.usdcUnits, p.price.lamports])).to.deep.equal([
      ['embed-starter', 500, 21_250_000, 114_750_000],
      ['embed-growth', 2000, 85_000_000, 459_000_000],
    ]);
    expect(Object.keys(AGENT_PLAN_PRODUCT.tiers)).to.deep.equal(['embed-starter', 'embed-growth']);
  });

  it('quotes a new plan and a renewal at the plan itself', function () {
    expect(quoteTerms('new', starter)).to.deep.equal({ price: starter.price, credits: 500, periodDays: 30 });
    expect(quoteTerms('renewal', growth)).to.deep.equal({ price: growth.price, credits: 2000, periodDays: 30 });
  });

  it('quotes an upgrade at the difference, keeping the period', function () {
    expect(quoteTerms('upgrade', growth, starter)).to.deep.equal({ price: { usdcUnits: 63_750_000, lamports: 344_250_000 }, credits: 1500, periodDays: 0 });
    expect(() => quoteTerms('upgrade', growth)).to.throw(/current plan/);
  });
});
