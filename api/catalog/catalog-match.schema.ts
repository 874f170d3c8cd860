import { JOB_SLUGS } from '../../shared/catalog/jobs';
import { OFFERINGS } from '../../shared/catalog/offerings';

/** Contract section 8: the catalog query is 1 to 160 characters. */
export const QUERY_MIN_CHARS = 1;
export const QUERY_MAX_CHARS = 160;

/** Days a handoff can be converted after it was recorded. */
export const ATTRIBUTION_WINDOW_DAYS = 30;

/** The shape of a job slug (a slug of another shape is 422; one of this shape that is no job is 404). */
export const JOB_SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

/** The shape of a partner id: kebab-case, 2 to 40 characters. */
export const PARTNER_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$';

/** Conversion kinds a partner may report. */
export const CONVERSION_EVENT_TYPES = ['signup', 'install', 'purchase'] as const;

/** The query of GET /api/catalog/recommend. */
export const recommendQuerySchema = {
  type: 'object',
  required: ['query'],
  additionalProperties: false,
  properties: {
    query: {
      type: 'string',
      minLength: QUERY_MIN_CHARS,
      maxLength: QUERY_MAX_CHARS,
      description: `Short, non-sensitive keywords (${QUERY_MIN_CHARS} to ${QUERY_MAX_CHARS} characters), e.g. "support bot replies". GET URLs persist in logs elsewhere; the service itself never stores or logs it.`,
    },
  },
} as const;

/** The query of GET /api/catalog/attribution/summary. */
export const summaryQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    include: { type: 'string', enum: ['vendors'], description: 'vendors: add per-vendor handoff and conversion totals (operator credential required).' },
  },
} as const;

/** Body of POST /api/catalog/match: the job and the offering the developer selected. */
export const matchRequestSchema = {
  type: 'object',
  required: ['job_slug'],
  additionalProperties: false,
  properties: {
    job_slug: { type: 'string', enum: JOB_SLUGS, description: 'The job (GET /api/catalog/jobs).' },
    offering_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "The selected offering: one of the job's offerings (its first when omitted), or a partner offering listed for the job.",
    },
  },
} as const;

/** Body of POST /api/operator/catalog/partners. */
export const partnerRequestSchema = {
  type: 'object',
  required: ['partner_id', 'name', 'summary', 'url', 'install_kind', 'job_slugs'],
  additionalProperties: false,
  properties: {
    partner_id: { type: 'string', pattern: PARTNER_ID_PATTERN, description: 'Kebab-case id, 2 to 40 characters; also the offering id. Must not be an offering id of this service.' },
    name: { type: 'string', minLength: 1, maxLength: 80, pattern: '\\S' },
    summary: { type: 'string', minLength: 1, maxLength: 280, pattern: '\\S' },
    url: { type: 'string', format: 'uri', pattern: '^https://', maxLength: 500, description: "The partner's https address where a developer starts." },
    install_kind: { type: 'string', enum: ['snippet', 'mcp_config', 'http_api', 'none'] },
    job_slugs: { type: 'array', minItems: 1, maxItems: JOB_SLUGS.length, uniqueItems: true, items: { type: 'string', enum: JOB_SLUGS }, description: 'The jobs the offering is listed for.' },
  },
} as const;

/** Body of POST /api/catalog/conversions (signed with Standard Webhooks by the partner). */
export const conversionRequestSchema = {
  type: 'object',
  required: ['partner_id', 'handoff_id', 'event_type'],
  additionalProperties: false,
  properties: {
    partner_id: { type: 'string', pattern: PARTNER_ID_PATTERN, description: "The partner's id: its signing secret verifies the signature." },
    handoff_id: { type: 'string', format: 'uuid', description: 'The handoff_id POST /api/catalog/match returned, which the developer carried to the partner.' },
    event_type: { type: 'string', enum: [...CONVERSION_EVENT_TYPES] },
  },
} as const;

const priceSchema = {
  type: 'object',
  required: ['usdc_units', 'lamports'],
  properties: { usdc_units: { type: 'integer' }, lamports: { type: 'integer' } },
} as const;

/** One offering as answers show it. */
export const offeringSchema = {
  type: 'object',
  required: ['id', 'name', 'kind', 'install_kind', 'summary', 'url'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', enum: ['paid_product', 'mcp', 'starter_kit', 'embed_component', 'partner'] },
    install_kind: { type: 'string', enum: ['snippet', 'mcp_config', 'http_api', 'none'] },
    summary: { type: 'string' },
    url: { type: 'string', description: "Absolute: this service's address for its own offerings, the partner's https address for a partner." },
    price: { ...priceSchema, description: "A paid product's published base quote (the live 402 quote is authoritative)." },
    payment: { type: 'string', enum: ['x402', 'bundle-credit', 'free'] },
  },
} as const;

const jobSchema = {
  type: 'object',
  required: ['job_slug', 'title', 'description', 'offering_ids', 'match_url'],
  properties: {
    job_slug: { type: 'string', enum: JOB_SLUGS },
    title: { type: 'string' },
    description: { type: 'string' },
    offering_ids: { type: 'array', items: { type: 'string' }, description: "The service's offerings first (best first), then partners' listed for the job." },
    keywords: { type: 'array', items: { type: 'string' }, description: 'The words and phrases the matcher looks for.' },
    match_url: { type: 'string' },
  },
} as const;

/** GET /api/catalog/jobs. */
export const jobListSchema = {
  type: 'object',
  required: ['matcher_version', 'jobs'],
  properties: { matcher_version: { type: 'string' }, jobs: { type: 'array', minItems: 10, maxItems: 10, items: jobSchema } },
} as const;

/** GET /api/catalog/recommend. */
export const recommendationSchema = {
  type: 'object',
  required: ['matcher_version', 'query_length', 'matches'],
  properties: {
    matcher_version: { type: 'string' },
    query_length: { type: 'integer', description: 'Characters in the query (code points). The query itself is not echoed.' },
    matches: {
      type: 'array',
      maxItems: 3,
      items: {
        type: 'object',
        required: ['rank', 'job_slug', 'title', 'score', 'matched_keywords', 'offerings', 'match_url'],
        properties: {
          rank: { type: 'integer', minimum: 1 },
          job_slug: { type: 'string' },
          title: { type: 'string' },
          score: { type: 'integer' },
          matched_keywords: { type: 'array', items: { type: 'string' } },
          offerings: { type: 'array', items: offeringSchema },
          match_url: { type: 'string' },
        },
      },
    },
    jobs_url: { type: 'string', description: 'All ten jobs, to pick from when nothing matched.' },
  },
} as const;

/** GET /api/catalog/match/{job_slug}. */
export const jobMatchSchema = {
  type: 'object',
  required: ['job_slug', 'title', 'description', 'primary_offering_id', 'offerings', 'matcher_version'],
  properties: {
    job_slug: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    primary_offering_id: { type: 'string' },
    offerings: { type: 'array', items: offeringSchema },
    matcher_version: { type: 'string' },
    select: { type: 'object', description: 'How to record the selection: POST /api/catalog/match with this body.' },
  },
} as const;

/** POST /api/catalog/match (201). */
export const handoffSchema = {
  type: 'object',
  required: ['handoff_id', 'job_slug', 'offering_id', 'offering', 'created_at', 'attribution_expires_at', 'match_url'],
  properties: {
    handoff_id: { type: 'string', format: 'uuid', description: 'Carry it to the offering (a partner reports conversions with it).' },
    job_slug: { type: 'string' },
    offering_id: { type: 'string' },
    offering: offeringSchema,
    created_at: { type: 'string', format: 'date-time' },
    attribution_expires_at: { type: 'string', format: 'date-time', description: `created_at + ${ATTRIBUTION_WINDOW_DAYS} days.` },
    match_url: { type: 'string' },
    handoff_url: { type: ['string', 'null'], description: "A partner's address with ?handoff_id= added; null for this service's own offerings." },
  },
} as const;

/** POST /api/catalog/conversions. */
export const conversionResultSchema = {
  type: 'object',
  required: ['handoff_id', 'counted', 'status'],
  properties: {
    handoff_id: { type: 'string', format: 'uuid' },
    counted: { type: 'boolean', description: 'true once per handoff; a later conversion of the same handoff is acknowledged but not counted.' },
    status: { type: 'string', enum: ['counted', 'already_counted'] },
    conversion_id: { type: 'string', format: 'uuid' },
  },
} as const;

const partnerSchema = {
  type: 'object',
  required: ['partner_id', 'name', 'summary', 'url', 'install_kind', 'job_slugs', 'created_at'],
  properties: {
    partner_id: { type: 'string' },
    name: { type: 'string' },
    summary: { type: 'string' },
    url: { type: 'string' },
    install_kind: { type: 'string' },
    job_slugs: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** POST /api/operator/catalog/partners (201). */
export const createdPartnerSchema = {
  type: 'object',
  required: ['partner', 'signing_secret'],
  properties: {
    partner: partnerSchema,
    signing_secret: { type: 'string', pattern: '^whsec_', description: 'Standard Webhooks signing secret for conversions; shown only here.' },
  },
} as const;

/** GET /api/operator/catalog/partners. */
export const partnerListSchema = { type: 'object', required: ['partners'], properties: { partners: { type: 'array', items: partnerSchema } } } as const;

/** GET /api/catalog/attribution/summary. */
export const summarySchema = {
  type: 'object',
  required: ['installers', 'handoffs', 'attribution_window_days'],
  properties: {
    installers: {
      type: 'object',
      required: ['verified_installs'],
      properties: { verified_installs: { type: 'integer', description: 'Installs proven live by the free install workflow.' } },
    },
    handoffs: {
      type: 'object',
      required: ['total', 'by_job'],
      properties: { total: { type: 'integer' }, by_job: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Every job slug, zero included.' } },
    },
    attribution_window_days: { type: 'integer' },
    vendors: {
      type: 'array',
      description: 'Only with include=vendors and an operator credential.',
      items: {
        type: 'object',
        required: ['partner_id', 'name', 'handoffs', 'conversions'],
        properties: { partner_id: { type: 'string' }, name: { type: 'string' }, handoffs: { type: 'integer' }, conversions: { type: 'integer' } },
      },
    },
  },
} as const;

/** Ids of this service's offerings: a partner may not take one. */
export const OWN_OFFERING_IDS: ReadonlySet<string> = new Set(OFFERINGS.map((o) => o.id));
