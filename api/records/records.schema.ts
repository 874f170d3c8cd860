import { PROFILE_ID_SCHEMA } from '../http/fields.schema';
import { LEADERBOARD_CACHE_SECONDS } from './leaderboard';
import type { QueryOf } from '../http/ajv';

/** Most rows one leaderboard request returns. */
export const MAX_LEADERBOARD_LIMIT = 100;

/** The query of GET /api/leaderboard (coerced from text; defaults applied). */
export const leaderboardQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: MAX_LEADERBOARD_LIMIT, default: 20, description: `Rows, 1 to ${MAX_LEADERBOARD_LIMIT} (default 20).` },
    profile: { ...PROFILE_ID_SCHEMA, description: 'Rank by the best score on this profile only (GET /api/profiles lists the ids).' },
  },
} as const;

/** The validated leaderboard query. */
export type LeaderboardQuery = QueryOf<typeof leaderboardQuerySchema>;

const profileRef = {
  type: ['object', 'null'],
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
} as const;

const maskedWallet = { type: 'string', description: "The paying wallet's first 6 and last 4 characters; never the full address." } as const;

/** A settled session as the public records show it. */
export const publicSessionSchema = {
  type: 'object',
  required: ['result_id', 'product', 'kind', 'label', 'tier', 'profile', 'eq_score', 'passed', 'network', 'wallet', 'settled_at'],
  properties: {
    result_id: { type: 'string', format: 'uuid' },
    product: { type: 'string', description: 'Catalog product id (simulate, ...).' },
    kind: {
      enum: ['scored_session', 'analysis', 'report', 'purchase'],
      description:
        'What the row is: scored_session (a simulate session or a duel leg: the only rows with an EQ score), analysis (stress test, ' +
        'rewrite, script check), report (progress report, training-dataset export), purchase (bundle, coaching pack, role-play room).',
    },
    label: { type: 'string', description: 'The product as people read it ("Scored session", "Stress test", "Bundle purchase"...).' },
    tier: { type: ['string', 'null'] },
    profile: profileRef,
    eq_score: { type: ['number', 'null'], description: 'EQ score, 0 to 100, of a scored session; null for every other kind.' },
    passed: { type: ['boolean', 'null'], description: 'The verdict of a scored session; null for every other kind.' },
    network: { type: 'string', description: 'CAIP-2 network of the settlement.' },
    wallet: maskedWallet,
    settled_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** GET /api/leaderboard. */
export const leaderboardSchema = {
  type: 'object',
  required: ['generated_at', 'profile', 'limit', 'cache_seconds', 'entries'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    profile: { type: ['string', 'null'] },
    limit: { type: 'integer' },
    cache_seconds: { type: 'integer', const: LEADERBOARD_CACHE_SECONDS },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rank', 'wallet', 'best_score', 'passed', 'profile', 'tier', 'result_id', 'achieved_at'],
        properties: {
          rank: { type: 'integer', minimum: 1 },
          wallet: maskedWallet,
          best_score: { type: 'number' },
          passed: { type: ['boolean', 'null'] },
          profile: profileRef,
          tier: { type: ['string', 'null'] },
          result_id: { type: 'string', format: 'uuid', description: 'The public result of the best session.' },
          achieved_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
} as const;

/** GET /api/certificate/{tx_hash} as JSON. */
export const certificateSchema = {
  type: 'object',
  required: ['certificate', 'session'],
  properties: {
    certificate: {
      type: 'object',
      required: ['title', 'description', 'url', 'image_url', 'svg_image_url', 'result_url'],
      properties: {
        title: { type: 'string' },
        description: { type: 'string' },
        url: { type: 'string', description: "This certificate's own address." },
        image_url: { type: 'string', description: 'The share image as PNG, 1200 x 630 (what og:image and twitter:image point at).' },
        svg_image_url: { type: 'string', description: 'The same image as SVG.' },
        result_url: { type: 'string' },
      },
    },
    session: publicSessionSchema,
  },
} as const;

/** GET /api/certificate/coaching-{uuid} as JSON: a completed coaching pack. */
export const coachingCertificateSchema = {
  type: 'object',
  required: ['certificate', 'coaching'],
  properties: {
    certificate: {
      type: 'object',
      required: ['kind', 'title', 'description', 'url', 'image_url'],
      properties: {
        kind: { const: 'coaching' },
        title: { type: 'string' },
        description: { type: 'string' },
        url: { type: 'string' },
        image_url: { type: 'string' },
      },
    },
    coaching: {
      type: 'object',
      description: 'Frozen when earned. No secret, no full wallet, no submitted text.',
      required: ['certificate_id', 'pack_id', 'pack_name', 'wallet', 'drills', 'average_score', 'average_bar', 'attempts_used', 'certified_at'],
      properties: {
        certificate_id: { type: 'string', pattern: '^coaching-' },
        pack_id: { type: 'string' },
        pack_name: { type: 'string' },
        wallet: { type: 'string', description: 'First 6 and last 4 characters.' },
        drills: {
          type: 'array',
          items: {
            type: 'object',
            properties: { drill_id: { type: 'string' }, title: { type: 'string' }, target_profile: { type: 'string' }, bar: { type: 'number' }, best_score: { type: 'number' } },
          },
        },
        average_score: { type: 'number' },
        average_bar: { type: 'number' },
        attempts_used: { type: 'integer' },
        certified_at: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

/** GET /api/scoreboard as JSON. */
export const scoreboardSchema = {
  type: 'object',
  required: ['generated_at', 'sessions', 'scored_sessions', 'passed_sessions', 'pass_rate', 'profiles', 'recent_passes'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    sessions: { type: 'integer', description: 'Settled ledger rows of every product.' },
    scored_sessions: { type: 'integer', description: 'Of which scored sessions (simulate sessions and duel legs); the profiles and passes read only these.' },
    passed_sessions: { type: 'integer' },
    pass_rate: { type: ['number', 'null'], description: 'passed / scored, 0 to 1.' },
    profiles: {
      type: 'array',
      items: {
        type: 'object',
        required: ['profile', 'best_score', 'sessions', 'passed', 'score_distribution'],
        properties: {
          profile: profileRef,
          best_score: { type: 'number' },
          sessions: { type: 'integer' },
          passed: { type: 'integer' },
          score_distribution: {
            type: 'array',
            minItems: 10,
            maxItems: 10,
            items: { type: 'integer', minimum: 0 },
            description: "How many of the profile's scored sessions fell in each ten-point band of EQ score: 0-9.9, 10-19.9, ..., 90-100.",
          },
        },
      },
    },
    recent_passes: { type: 'array', items: publicSessionSchema },
  },
} as const;

const windows = {
  type: 'object',
  required: ['last_24h', 'last_7d', 'last_30d'],
  properties: { last_24h: { type: 'integer' }, last_7d: { type: 'integer' }, last_30d: { type: 'integer' } },
} as const;

/** GET /api/stats. */
export const statsSchema = {
  type: 'object',
  required: ['generated_at', 'sessions', 'scored_sessions', 'passed_sessions', 'pass_rate', 'volume', 'active_wallets', 'queue'],
  properties: {
    generated_at: { type: 'string', format: 'date-time' },
    sessions: { ...windows, required: ['total', ...windows.required], properties: { total: { type: 'integer' }, ...windows.properties } },
    scored_sessions: { type: 'integer' },
    passed_sessions: { type: 'integer' },
    pass_rate: { type: ['number', 'null'] },
    volume: {
      type: 'array',
      items: {
        type: 'object',
        required: ['network', 'asset', 'amount', 'sessions'],
        properties: {
          network: { type: 'string' },
          asset: { type: 'string' },
          amount: { type: 'string', description: "Settled total in the asset's atomic units." },
          sessions: { type: 'integer' },
        },
      },
    },
    active_wallets: { ...windows, description: 'Distinct paying wallets per window (counts only).' },
    queue: {
      type: ['object', 'null'],
      description: 'Scoring-queue jobs by state; null when Redis did not answer within 1 s.',
      properties: {
        scoring: {
          type: 'object',
          properties: { waiting: { type: 'integer' }, active: { type: 'integer' }, delayed: { type: 'integer' }, failed: { type: 'integer' } },
        },
      },
    },
  },
} as const;
