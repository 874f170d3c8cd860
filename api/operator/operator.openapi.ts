import type { OperationSpec } from '../http/openapi/operation';
import { COMMON_RESPONSES, credentialResponses } from '../http/responses.schema';
import { CONVERSION_ATTRIBUTION } from './public-results-conversion';
import { CORPUS_INSIGHT_DEFINITIONS } from './corpus-insights';
import { REPORTED_UPLIFT_DEFINITION } from './reported-uplift';
import { conversionQuerySchema, conversionSchema, corpusInsightsSchema } from './operator.schema';

/** OpenAPI specs of the operator reads. */
export const operatorOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/operator/corpus-insights',
    operationId: 'getCorpusInsights',
    summary: 'Per-profile clean-sample counts, average score and measured uplift of the free corpus, and the uplift bundle holders reported (operator).',
    description:
      `Clean sample: ${CORPUS_INSIGHT_DEFINITIONS.clean_sample} Average: ${CORPUS_INSIGHT_DEFINITIONS.average_eq_score} ` +
      `Uplift: ${CORPUS_INSIGHT_DEFINITIONS.uplift} reported_uplift: ${REPORTED_UPLIFT_DEFINITION} Aggregates only: no text, caller hash, bundle or entry id.`,
    tags: ['operators'],
    security: 'operatorToken',
    responses: {
      '200': { description: 'The insights.', schema: corpusInsightsSchema },
      ...credentialResponses('operator'),
    },
  },
  {
    method: 'get',
    path: '/api/operator/public-results/conversion',
    operationId: 'getPublicResultsConversion',
    summary: 'Aggregate, identity-free funnel from public result and certificate views to paid calls (operator).',
    description: CONVERSION_ATTRIBUTION,
    tags: ['operators'],
    security: 'operatorToken',
    query: conversionQuerySchema,
    responses: {
      '200': { description: 'The funnel, per UTC day and in total.', schema: conversionSchema },
      ...credentialResponses('operator'),
      '422': COMMON_RESPONSES['422'],
    },
  },
];
