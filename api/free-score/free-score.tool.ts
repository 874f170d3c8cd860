import type { FieldProblem } from '../../shared/errors';
import type { ScoreResult } from '../../shared/scoring/result-types';
import type { AgentCall, AgentTool } from '../http/agent-tool';
import { callerHashFor } from '../http/caller-key';
import type { AppDeps } from '../http/deps';
import type { CorpusScoreWriter } from './corpus-scores';
import { runFreeScore } from './free-score';
import { scoreRequestSchema, type ScoreRequest } from './free-score.schema';

/**
 * The public shape of a free score: the engine's profile-free measures, plus the verdict and the
 * advice when a target profile was given.
 * @param score - the engine's result
 * @returns the `score` member of the response
 */
export function presentFreeScore(score: ScoreResult) {
  const verdict = score.result;
  return {
    scorer_version: score.scorer_version,
    human_likeness: score.human_likeness,
    measures: score.measures,
    profile: verdict?.profile ?? null,
    eq_score: verdict?.eq_score ?? null,
    passed: verdict?.passed ?? null,
    dimensions: verdict?.dimensions ?? null,
    targets: verdict?.targets ?? null,
    signals: verdict?.signals ?? score.signals,
    suggested_prompt_addition: verdict?.advice.suggested_prompt_addition ?? null,
    improvement: verdict?.advice.improvement ?? null,
    suggested_delay_seconds: verdict?.advice.suggested_delay_seconds ?? null,
  };
}

/**
 * The consent rule's own code: a missing or non-boolean `data_consent` is `data_consent_required`.
 * @param fields - the failing fields
 * @returns the code and message, or undefined
 */
export function refineFreeScore(fields: FieldProblem[]): { code: string; message: string } | undefined {
  return fields.some((f) => f.path === '/data_consent')
    ? { code: 'data_consent_required', message: 'Free scoring needs data_consent: true (the boolean); see details.fields.' }
    : undefined;
}

/**
 * One free score for a caller, answered as `POST /api/score` answers it: the score and the free
 * tier's count. The caller is its client address (hashed), whichever transport it came by.
 * @param deps - app dependencies and the corpus writer
 * @param request - the validated request
 * @param call - request id, logger, client address
 * @returns the response body
 * @throws AppError free_cap_reached (429, with an upgrade block), wishlist_required (403), and what scoring throws
 */
export async function freeScoreAnswer(deps: AppDeps & { corpusScores: CorpusScoreWriter }, request: ScoreRequest, call: AgentCall): Promise<Record<string, unknown>> {
  const { freeTier } = deps.config;
  const outcome = await runFreeScore(deps, callerHashFor(call.ip, freeTier.callerHashKey), request, call.reqId, call.log);
  deps.metrics.freeRoundUsed();
  return {
    score: presentFreeScore(outcome.result.score),
    free_tier: {
      limit: freeTier.scoreLimit,
      used: outcome.used,
      remaining: Math.max(0, freeTier.scoreLimit - outcome.used),
      wishlist_required_before_score: freeTier.wishlistRequiredFrom,
      corpus: 'This consented reply was added to the free corpus (the incoming message is never stored).',
    },
  };
}

/**
 * The free score as an agent tool: the same schema, consent rule, cap and wishlist rule as
 * `POST /api/score`, counted against the same caller.
 * @param deps - app dependencies and the corpus writer
 * @returns the tool
 */
export function freeScoreTool(deps: AppDeps & { corpusScores: CorpusScoreWriter }): AgentTool {
  const { freeTier } = deps.config;
  return {
    name: 'score',
    title: 'Free score',
    description:
      `Scores a reply for free (POST /api/score): data_consent must be true (the reply joins the free corpus). ` +
      `${freeTier.scoreLimit} lifetime free scores per caller; before free score ${freeTier.wishlistRequiredFrom} submit one wishlist item (POST /api/wishlist). ` +
      'When the cap is used the result is an error with an upgrade block pointing to the paid simulate tool.',
    inputSchema: scoreRequestSchema,
    refine: refineFreeScore,
    readOnly: false,
    run: (args, call) => freeScoreAnswer(deps, args as ScoreRequest, call),
  };
}
