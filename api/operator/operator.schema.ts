import { PROFILE_IDS } from '../http/fields.schema';
import type { QueryOf } from '../http/ajv';

/** Longest funnel window, in days. */
export const MAX_CONVERSION_DAYS = 366;

/** The query of `GET /api/operator/public-results/conversion` (coerced from text; defaults applied). */
export const conversionQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    days: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CONVERSION_DAYS,
      default: 30,
      description: `UTC days in the window, today included (1 to ${MAX_CONVERSION_DAYS}, default 30).`,
    },
  },
} as const;

/** The validated conversion query. */
export type ConversionQuery = QueryOf<typeof conversionQuerySchema>;

const uplift = {
  type: 'object',
  required: ['mean_eq_change', 'callers_measured'],
  properties: {
    mean_eq_change: { type: ['number', 'null'], description: 'EQ points; null when no caller has two clean samples.' },
    callers_measured: { type: 'integer', minimum: 0 },
  },
} as const;

const nullableNumber = { type: ['number', 'null'] } as const;

const reportedLine = {
  type: 'object',
  required: ['reports', 'bundles', 'applied', 'not_applied', 'suppressed'],
  properties: {
    reports: { type: 'integer', minimum: 0 },
    bundles: { type: ['integer', 'null'], description: 'Distinct reporting bundles; null below five.' },
    applied: {
      type: 'object',
      properties: { reports: { type: 'integer' }, mean_eq_change: nullableNumber, interval95: { anyOf: [{ type: 'array', items: { type: 'number' } }, { type: 'null' }] } },
    },
    not_applied: { type: 'object', properties: { reports: { type: 'integer' }, mean_eq_change: nullableNumber } },
    suppressed: { type: 'boolean' },
  },
} as const;

/** The measured uplift bundle holders reported (`POST /api/aei/outcome`), part of the corpus insights. */
export const reportedUpliftSchema = {
  type: 'object',
  required: ['definition', 'min_bundles', 'totals', 'profiles'],
  properties: {
    definition: { type: 'string' },
    min_bundles: { type: 'integer' },
    totals: reportedLine,
    profiles: { type: 'array', items: { ...reportedLine, required: ['profile', ...reportedLine.required], properties: { profile: { type: 'string', enum: PROFILE_IDS }, ...reportedLine.properties } } },
  },
} as const;

/** The body of `GET /api/operator/corpus-insights`. */
export const corpusInsightsSchema = {
  type: 'object',
  required: ['generated_at', 'definitions', 'totals', 'profiles', 'reported_uplift'],
  properties: {
    reported_uplift: reportedUpliftSchema,
    generated_at: { type: 'string', format: 'date-time' },
    definitions: {
      type: 'object',
      required: ['clean_sample', 'average_eq_score', 'uplift'],
      properties: { clean_sample: { type: 'string' }, average_eq_score: { type: 'string' }, uplift: { type: 'string' } },
    },
    totals: {
      type: 'object',
      required: ['clean_samples', 'average_eq_score', 'uplift'],
      properties: { clean_samples: { type: 'integer' }, average_eq_score: { type: ['number', 'null'] }, uplift },
    },
    profiles: {
      type: 'array',
      description: 'Every profile, in the catalog order, zeros included.',
      items: {
        type: 'object',
        required: ['profile', 'clean_samples', 'average_eq_score', 'uplift'],
        properties: {
          profile: { type: 'string', enum: PROFILE_IDS },
          clean_samples: { type: 'integer', minimum: 0 },
          average_eq_score: { type: ['number', 'null'], description: 'Mean EQ score (0..100); null without samples.' },
          uplift,
        },
      },
    },
  },
} as const;

const dayCounts = {
  result_views: { type: 'integer', minimum: 0, description: 'Views of GET /api/results/{result_id}.' },
  certificate_views: { type: 'integer', minimum: 0, description: 'Views of GET /api/certificate/{tx_hash} (JSON or the HTML page).' },
  paid_calls: { type: 'integer', minimum: 0, description: 'Paid calls settled that day.' },
  first_paid_calls: { type: 'integer', minimum: 0, description: "Paid calls that were their wallet's first." },
} as const;

/** The body of `GET /api/operator/public-results/conversion`. */
export const conversionSchema = {
  type: 'object',
  required: ['generated_at', 'window', 'attribution', 'totals', 'days'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    window: {
      type: 'object',
      required: ['from', 'to', 'days'],
      properties: { from: { type: 'string', format: 'date' }, to: { type: 'string', format: 'date' }, days: { type: 'integer' } },
    },
    attribution: { type: 'string', description: 'How views and paid calls are related (same UTC day, aggregate only).' },
    totals: {
      type: 'object',
      required: [...Object.keys(dayCounts), 'public_views', 'paid_calls_per_100_views', 'first_paid_calls_per_100_views'],
      properties: {
        ...dayCounts,
        public_views: { type: 'integer', minimum: 0 },
        paid_calls_per_100_views: { type: ['number', 'null'], description: 'null without views.' },
        first_paid_calls_per_100_views: { type: ['number', 'null'] },
      },
    },
    days: {
      type: 'array',
      description: 'One row per UTC day of the window, oldest first.',
      items: { type: 'object', required: ['date', ...Object.keys(dayCounts)], properties: { date: { type: 'string', format: 'date' }, ...dayCounts } },
    },
  },
} as const;
