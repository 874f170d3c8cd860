import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FromSchema } from 'json-schema-to-ts';
import { ConfigError } from './errors';

/** The caller-hash key used when none is configured; refused when NODE_ENV is production. */
export const DEV_CALLER_HASH_KEY = 'dev-only-caller-hash-key-do-not-use-in-production';
/** The development key that encrypts pilot sponsors' agent keys; production refuses it. */
export const DEV_PILOT_AGENT_KEY_SECRET = 'dev-only-pilot-agent-key-secret-do-not-use-in-production';

/** USDC on Base mainnet (eip155:8453), the default payment asset. */
export const BASE_USDC_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

type IntSchema = { readonly type: 'integer'; readonly minimum: number; readonly maximum: number };

// An integer variable; with a default it is always present after validation (ajv's useDefaults).
function int(minimum: number, maximum: number): IntSchema;
function int(minimum: number, maximum: number, dflt: number): IntSchema & { readonly default: number };
function int(minimum: number, maximum: number, dflt?: number): IntSchema & { readonly default?: number } {
  return dflt === undefined ? { type: 'integer', minimum, maximum } : { type: 'integer', minimum, maximum, default: dflt };
}

const EVM_ADDRESS = '^0x[0-9a-fA-F]{40}$';

// Every variable the service reads, with its default; see README "Configuration". Its type is
// derived from it (EnvShape), and the configuration's from the mapping in configFrom: a variable is
// written here and where it lands, nowhere else.
const ENV_SCHEMA = {
  type: 'object',
  // Only these keys are ever copied from the environment; closing the object closes EnvShape too.
  additionalProperties: false,
  properties: {
    NODE_ENV: { type: 'string', enum: ['development', 'production', 'test'], default: 'development' },
    LOG_LEVEL: { type: 'string', enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    PORT: int(0, 65535, 3000),
    HOST: { type: 'string', minLength: 1 },
    TRUSTED_PROXY_HOPS: int(0, 10, 0),
    HTTP_BODY_LIMIT_BYTES: int(1024, 10 * 1024 * 1024, 256 * 1024),
    CORS_ORIGIN: { type: 'string', minLength: 1, default: '*' },
    // Comma-separated origins, e.g. "https://app.example.com,http://localhost:5173".
    MCP_ALLOWED_ORIGINS: { type: 'string', pattern: '^(https?://[^/,\\s]+(,\\s*https?://[^/,\\s]+)*)?$', default: '' },
    // Well below Node's 300 s, so a slow or stalled client cannot hold a connection for minutes.
    HTTP_HEADERS_TIMEOUT_MS: int(100, 300_000, 15_000),
    HTTP_REQUEST_TIMEOUT_MS: int(100, 300_000, 30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100, 600_000, 5_000),
    FEED_MAX_PER_CALLER: int(1, 10_000, 5),
    FEED_MAX_CONNECTIONS: int(1, 1_000_000, 1_000),
    SHUTDOWN_GRACE_MS: int(0, 120_000, 10_000),
    REDIS_URL: { type: 'string', pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' },
    QUEUE_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', default: 'humanlike' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    DATABASE_POOL_MAX: int(1, 100, 10),
    DATABASE_SSL: { type: 'boolean', default: false },
    DATABASE_PREPARED_STATEMENTS: { type: 'boolean', default: true },
    JOB_WAIT_TIMEOUT_MS: int(100, 600_000, 15_000),
    JOB_ENQUEUE_TIMEOUT_MS: int(50, 60_000, 2_000),
    JOB_ATTEMPTS: int(1, 20, 3),
    JOB_BACKOFF_MS: int(0, 600_000, 500),
    JOB_KEEP_SECONDS: int(1, 86_400 * 7, 300),
    SCORING_THREADS: int(1, 256),
    SCORING_CONCURRENCY: int(1, 1024),
    WORKER_LOCK_DURATION_MS: int(1_000, 600_000, 30_000),
    WORKER_STALLED_INTERVAL_MS: int(500, 600_000, 30_000),
    MAINTENANCE_EVERY_MS: int(1_000, 86_400_000, 60_000),
    CALLER_HASH_KEY: { type: 'string', minLength: 16, default: DEV_CALLER_HASH_KEY },
    PILOT_AGENT_KEY_SECRET: { type: 'string', minLength: 32 },
    FREE_SCORE_LIMIT: int(0, 1_000_000_000, 3),
    FREE_WISHLIST_REQUIRED_FROM: int(1, 1_000_000_001, 3),
    WISHLIST_CAP_PER_CALLER: int(1, 1000, 5),
    MCP_REGISTRY_AUTH: { type: 'string', pattern: '^v=MCPv1; k=[a-z0-9]+; p=[A-Za-z0-9+/]+={0,2}$' },
    OPERATOR_AUTH_FAILURE_LIMIT: int(1, 10_000, 10),
    PROOF_CARD_WINDOW_DAYS: int(1, 366, 30),
    PROOF_CARD_REFRESH_MS: int(1_000, 86_400_000, 60_000),
    OPERATOR_AUTH_FAILURE_WINDOW_SECONDS: int(1, 86_400, 300),
    COMMUNITY_REVIEW_SESSIONS_PER_HOUR: int(1, 100_000, 10),
    COMMUNITY_REVIEW_RESPONSES_PER_HOUR: int(1, 100_000, 120),
    WORKER_METRICS_PORT: int(0, 65535),
    WORKER_METRICS_HOST: { type: 'string', minLength: 1, default: '127.0.0.1' },
    X402_NETWORK: { type: 'string', pattern: '^[a-z0-9-]+:[A-Za-z0-9]+$', default: 'eip155:8453' },
    USDC_ASSET_ADDRESS: { type: 'string', pattern: EVM_ADDRESS, default: BASE_USDC_ADDRESS },
    USDC_ASSET_NAME: { type: 'string', minLength: 1, default: 'USD Coin' },
    USDC_ASSET_VERSION: { type: 'string', minLength: 1, default: '2' },
    X402_MAX_TIMEOUT_SECONDS: int(30, 3600, 300),
    X402_FACILITATOR_URL: { type: 'string', pattern: '^https?://', default: 'http://127.0.0.1:4020' },
    X402_FACILITATOR_TIMEOUT_MS: int(100, 120_000, 10_000),
    SETTLEMENT_WAIT_TIMEOUT_MS: int(100, 600_000, 30_000),
    SETTLEMENT_CONCURRENCY: int(1, 4096, 256),
    PAID_ADMISSION_MIN: int(1, 4096, 4),
    PAID_ADMISSION_MAX: int(1, 4096, 1024),
    SETTLEMENT_RECONCILE_AFTER_SECONDS: int(10, 86_400, 120),
    BUNDLE_REDEMPTION_ABANDONED_SECONDS: int(60, 86_400, 600),
    PUBLIC_BASE_URL: { type: 'string', pattern: '^https?://[^/]+$' },
    X402_LEGACY_NETWORK: { type: 'string', enum: ['solana', 'solana-devnet'], default: 'solana' },
    SOLANA_RPC_URL: { type: 'string', pattern: '^https?://', default: 'https://api.mainnet-beta.solana.com' },
    EVM_RPC_URL: { type: 'string', pattern: '^https?://' },
    TREASURY_EVM_ADDRESS: { type: 'string', pattern: EVM_ADDRESS },
    TREASURY_SOLANA_ADDRESS: { type: 'string', pattern: '^[1-9A-HJ-NP-Za-km-z]{32,44}$' },
    STRIPE_SECRET_KEY: { type: 'string', pattern: '^(sk|rk)_[A-Za-z0-9_]{8,255}$' },
    STRIPE_WEBHOOK_SECRET: { type: 'string', pattern: '^whsec_[A-Za-z0-9+/=_-]{8,255}$' },
    STRIPE_API_URL: { type: 'string', pattern: '^https?://[^/]+/?$' },
    STRIPE_WEBHOOK_TOLERANCE_SECONDS: int(1, 3_600, 300),
    STRIPE_TIMEOUT_MS: int(100, 120_000, 15_000),
    CARD_MAINTENANCE_EVERY_MS: int(1_000, 86_400_000, 60_000),
    CARD_RECONCILE_LOOKBACK_SECONDS: int(60, 30 * 86_400, 3 * 86_400),
    LLM_BASE_URL: { type: 'string', pattern: '^https?://' },
    LLM_API_KEY: { type: 'string', minLength: 1 },
    LLM_MODEL: { type: 'string', minLength: 1 },
    EMBED_MAX_IN_FLIGHT: int(1, 100_000, 64),
    // Comma-separated; each entry is checked as an address below (a pattern cannot say "an IPv6 CIDR").
    OUTBOUND_ALLOW_ADDRESSES: { type: 'string', pattern: '^[0-9A-Fa-f.:/,\\s]*$', default: '' },
    OUTBOUND_ALLOW_PORTS: { type: 'string', pattern: '^(\\d{1,5}(,\\s*\\d{1,5})*)?$', default: '' },
  },
} as const;

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: true });
addFormats(ajv);
const validateEnv = ajv.compile(ENV_SCHEMA);

// The validated environment: a variable with a default is always present (useDefaults).
type EnvShape = FromSchema<typeof ENV_SCHEMA>;

function describe(err: ErrorObject): string {
  const name = err.instancePath.replace(/^\//, '');
  switch (err.keyword) {
    case 'pattern':
      return `${name} has the wrong format (expected ${String(err.params.pattern)})`;
    case 'enum':
      return `${name} must be one of ${(err.params.allowedValues as unknown[]).join(', ')}`;
    default:
      // Values are never echoed: URLs and keys may hold secrets.
      return `${name} ${err.message ?? 'is invalid'}`;
  }
}

function listOf(csv: string): string[] {
  return csv
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Parses and validates the environment once into a typed, nested, frozen object.
 * Only entry files pass `process.env`; tests pass explicit values.
 * @param env - flat environment variables (empty strings count as unset)
 * @returns the frozen configuration
 * @throws ConfigError listing every invalid variable at once
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ENV_SCHEMA.properties)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') raw[key] = value.trim();
  }
  const problems: string[] = [];
  if (!validateEnv(raw)) problems.push(...(validateEnv.errors ?? []).map(describe));
  const e = raw as unknown as EnvShape;
  if (e.NODE_ENV === 'production' && e.CALLER_HASH_KEY === DEV_CALLER_HASH_KEY) {
    problems.push('CALLER_HASH_KEY must be set to a secret of at least 16 characters in production');
  }
  if (e.NODE_ENV === 'production' && e.PILOT_AGENT_KEY_SECRET === DEV_PILOT_AGENT_KEY_SECRET) {
    problems.push('PILOT_AGENT_KEY_SECRET must be a secret of your own in production, not the development value');
  }
  // 3 lifetime free scores is a product rule; the limit is a knob only so benches can lift it.
  if (e.NODE_ENV === 'production' && e.FREE_SCORE_LIMIT > 3) {
    problems.push('FREE_SCORE_LIMIT above 3 is for benchmarks only and is refused in production');
  }
  // Node refuses a headers timeout longer than the request timeout.
  if (typeof e.HTTP_HEADERS_TIMEOUT_MS === 'number' && typeof e.HTTP_REQUEST_TIMEOUT_MS === 'number' && e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  if (typeof e.PAID_ADMISSION_MIN === 'number' && typeof e.PAID_ADMISSION_MAX === 'number' && e.PAID_ADMISSION_MIN > e.PAID_ADMISSION_MAX) {
    problems.push('PAID_ADMISSION_MIN must not exceed PAID_ADMISSION_MAX');
  }
  // A key without the webhook secret would take payments whose grants could never be verified.
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) problems.push('STRIPE_WEBHOOK_SECRET must be set together with STRIPE_SECRET_KEY');
  // A provider is the three variables together; a partial one is a mistake, not "no provider".
  for (const entry of listOf(e.OUTBOUND_ALLOW_ADDRESSES)) {
    if (!isAddressOrCidr(entry)) problems.push(`OUTBOUND_ALLOW_ADDRESSES has an entry that is not an IP address or CIDR block (${entry})`);
  }
  for (const port of listOf(e.OUTBOUND_ALLOW_PORTS).map(Number)) {
    if (port < 1 || port > 65535) problems.push('OUTBOUND_ALLOW_PORTS has a port outside 1-65535');
  }
  const llmSet = [e.LLM_BASE_URL, e.LLM_API_KEY, e.LLM_MODEL].filter((v) => v !== undefined).length;
  if (llmSet > 0 && llmSet < 3) problems.push('LLM_BASE_URL, LLM_API_KEY and LLM_MODEL must be set together (or none of them)');
  if (problems.length > 0) throw new ConfigError(problems);

  return deepFreeze(configFrom(e));
}

// The configuration as callers see it: frozen (every member readonly, arrays included), and a member
// that may be undefined optional, so a part built by hand (a test's data source) may leave it out.
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? Flat<{ readonly [K in keyof T as undefined extends T[K] ? never : K]: Frozen<T[K]> } & { readonly [K in keyof T as undefined extends T[K] ? K : never]?: Frozen<T[K]> }>
    : T;
type Flat<T> = { [K in keyof T]: T[K] };

/** The whole configuration, parsed once from the environment and frozen (its members are documented in {@link configFrom}). */
export type AppConfig = Frozen<ReturnType<typeof configFrom>>;

// Where each variable lands in the configuration; the members' comments are AppConfig's.
function configFrom(e: EnvShape) {
  const threads = e.SCORING_THREADS ?? Math.max(1, Math.min(4, availableParallelism()));
  return {
    env: e.NODE_ENV,
    log: { level: e.LOG_LEVEL },
    http: {
      port: e.PORT,
      /** Interface to bind; undefined binds every interface. */
      host: e.HOST,
      /** How many reverse proxies in front of the API append to X-Forwarded-For (0: use the socket address). */
      trustedProxyHops: e.TRUSTED_PROXY_HOPS,
      bodyLimitBytes: e.HTTP_BODY_LIMIT_BYTES,
      corsOrigin: e.CORS_ORIGIN,
      /** A request whose headers are not complete after this long is answered 408 and its connection closed. */
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      /**
       * The same for the whole request, body included. It ends once the request is received: a
       * response may stream for longer (the live feed does).
       */
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      /** How long an idle keep-alive connection stays open; above the idle timeout of a proxy in front. */
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      /**
       * Browser origins (`scheme://host[:port]`) allowed to call the MCP endpoint, besides the origin
       * of `PUBLIC_BASE_URL`; a request with another Origin is refused (DNS-rebinding protection).
       */
      mcpAllowedOrigins: listOf(e.MCP_ALLOWED_ORIGINS),
    },
    /** Connections to the live feed (`GET /api/feed`), per web process; beyond either limit the answer is 429. */
    feed: {
      /** Open streams per caller (an IPv4 address or an IPv6 /64). */
      maxPerCaller: e.FEED_MAX_PER_CALLER,
      /** Open streams in all. */
      maxConnections: e.FEED_MAX_CONNECTIONS,
    },
    /** How long in-flight requests and active jobs get on shutdown before they are cut off. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    redis: {
      url: e.REDIS_URL,
      /** BullMQ key prefix; lets several deployments (or test runs) share one Redis. */
      queuePrefix: e.QUEUE_PREFIX,
    },
    db: {
      /** PostgreSQL URL; undefined only under the `npm start` supervisor, which supplies an embedded one. */
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      ssl: e.DATABASE_SSL,
      /**
       * Hot statements (see shared/db/hot-statement) run as named prepared statements, parsed and
       * planned once per connection. Off where connections share one backend session (the embedded
       * PGlite of `npm start`, a transaction-mode pooler without prepared-statement support).
       */
      // Always set here; optional for data sources built by hand (tests, benches, the supervisor).
      preparedStatements: e.DATABASE_PREPARED_STATEMENTS as boolean | undefined,
    },
    jobs: {
      /** Deadline for a job's result before the API answers 504 job_timeout. */
      waitTimeoutMs: e.JOB_WAIT_TIMEOUT_MS,
      /** Deadline for handing a job to Redis before the API answers 503. */
      enqueueTimeoutMs: e.JOB_ENQUEUE_TIMEOUT_MS,
      attempts: e.JOB_ATTEMPTS,
      backoffMs: e.JOB_BACKOFF_MS,
      /** How long finished jobs stay in Redis (the waiter checks a finished job once after subscribing). */
      keepSeconds: e.JOB_KEEP_SECONDS,
    },
    scoring: {
      /** Piscina threads per worker process. */
      threads,
      /** Jobs one worker process runs at once (about the thread count: Redis stays the backlog). */
      concurrency: e.SCORING_CONCURRENCY ?? threads,
      /** BullMQ lock duration: a killed worker's job is retried after about this long. */
      lockDurationMs: e.WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
      /** Interval of the maintenance heartbeat job scheduler. */
      maintenanceEveryMs: e.MAINTENANCE_EVERY_MS,
    },
    freeTier: {
      /** HMAC key for caller hashes; the raw client address is never stored. */
      callerHashKey: e.CALLER_HASH_KEY,
      /** Lifetime free scores per caller (3, never reset). */
      scoreLimit: e.FREE_SCORE_LIMIT,
      /** The ordinal of the first free score that needs a wishlist item first (3: "before the third"). */
      wishlistRequiredFrom: e.FREE_WISHLIST_REQUIRED_FROM,
      /** Wishlist items one caller may submit. */
      wishlistCap: e.WISHLIST_CAP_PER_CALLER,
    },
    /** Proof cards (README "Proof cards"). */
    proofCards: {
      /** Whole UTC days (today included) the evidence counters cover: the cards' `metrics_window`. */
      windowDays: e.PROOF_CARD_WINDOW_DAYS,
      /** Interval of the maintenance job that rebuilds the cards' evidence snapshot. */
      refreshEveryMs: e.PROOF_CARD_REFRESH_MS,
    },
    /** Discovery documents (llms.txt, the /.well-known manifests). */
    discovery: {
      /**
       * The MCP registry's HTTP domain-verification record served at /.well-known/mcp-registry-auth
       * (`v=MCPv1; k=ed25519; p=<base64 public key>`); unset: that path answers 404.
       */
      mcpRegistryAuth: e.MCP_REGISTRY_AUTH,
    },
    /** Operator and admin credentials (README "Operating"). */
    operators: {
      /** Failed credential attempts one caller may make per window; beyond, 429 until the window ends. */
      authFailureLimit: e.OPERATOR_AUTH_FAILURE_LIMIT,
      authFailureWindowSeconds: e.OPERATOR_AUTH_FAILURE_WINDOW_SECONDS,
      /** Port of each worker process's `/metrics` (job durations, process metrics); undefined: not served. */
      workerMetricsPort: e.WORKER_METRICS_PORT,
      /** Address the worker metrics listen on (loopback unless a scraper elsewhere needs it). */
      workerMetricsHost: e.WORKER_METRICS_HOST,
    },
    /** Community review (`/api/community-review`): writes one caller may make per hour; beyond, 429. */
    communityReview: {
      /** Review sessions (consents) per caller per hour. */
      sessionsPerHour: e.COMMUNITY_REVIEW_SESSIONS_PER_HOUR,
      /** Rating submissions per caller per hour. */
      responsesPerHour: e.COMMUNITY_REVIEW_RESPONSES_PER_HOUR,
    },
    /**
     * Card credit packs (README "Card credit packs", docs/card-packs.md): Stripe through the official
     * SDK. With no secret key the card routes answer 503 card_payments_unavailable; `npm start` starts
     * the local development card processor and sets all three for web and worker.
     */
    cards: {
      /** Stripe secret key (`sk_...`); unset: card payments are off. Never logged. */
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      /** Signing secret of the webhook endpoint (`whsec_...`); required with the secret key. Never logged. */
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
      /**
       * Base URL of a Stripe-compatible API (`http://127.0.0.1:4030`): the local development card
       * processor. Unset: api.stripe.com.
       */
      stripeApiUrl: e.STRIPE_API_URL?.replace(/\/+$/, ''),
      /** Oldest webhook signature timestamp accepted, in seconds (Stripe's default tolerance is 300). */
      webhookToleranceSeconds: e.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      /** Deadline of one call to the card processor. */
      stripeTimeoutMs: e.STRIPE_TIMEOUT_MS,
      /** Interval of the maintenance jobs that charge due renewals and reconcile missed webhooks. */
      maintenanceEveryMs: e.CARD_MAINTENANCE_EVERY_MS,
      /** How far back the reconciler lists the processor's events, in seconds (Stripe keeps 30 days). */
      reconcileLookbackSeconds: e.CARD_RECONCILE_LOOKBACK_SECONDS,
    },
    /**
     * The OpenAI-compatible chat-completions provider of the features that need a language model
     * (the embedded check's contextual mode). Unset: those features answer "unavailable" and charge nothing.
     */
    llm: {
      provider:
        e.LLM_BASE_URL !== undefined && e.LLM_API_KEY !== undefined && e.LLM_MODEL !== undefined
          ? { baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''), apiKey: e.LLM_API_KEY, model: e.LLM_MODEL }
          : undefined,
    },
    /** The pilot program (`/api/aei/pilot/*`). */
    pilot: {
      /**
       * Secret from which the key that encrypts sponsors' agent API keys at rest is derived
       * (AES-256-GCM). Never logged; changing it makes stored agent keys unreadable (re-enter them).
       * Unset in production: no agent endpoint can be registered or called (the rest of the service runs).
       * Outside production a fixed development secret lets `npm start` and tests register agents.
       */
      agentKeySecret: e.PILOT_AGENT_KEY_SECRET ?? (e.NODE_ENV === 'production' ? undefined : DEV_PILOT_AGENT_KEY_SECRET),
    },
    /**
     * Calls to addresses a caller or a sponsor gave (install checks, pilot agents) go through the
     * outbound guard; these lists only widen it for development and tests (a loopback site).
     */
    outbound: {
      /** Loopback or private addresses (IP or CIDR) that may be fetched anyway. Empty in production. */
      allowAddresses: listOf(e.OUTBOUND_ALLOW_ADDRESSES),
      /** Ports besides 80 and 443 that may be fetched. Empty in production. */
      allowPorts: listOf(e.OUTBOUND_ALLOW_PORTS).map(Number),
    },
    /** The embedded check (`POST /api/embed/check`). */
    embed: {
      /** Checks one web process works on at once; beyond, 429 paid_capacity_busy with Retry-After (no charge). */
      maxInFlight: e.EMBED_MAX_IN_FLIGHT,
    },
    payments: {
      /** CAIP-2 network of the default USDC rail. */
      network: e.X402_NETWORK,
      usdcAsset: e.USDC_ASSET_ADDRESS,
      /** EIP-712 domain of the USDC token (`extra.name`, `extra.version` of the requirement). */
      usdcName: e.USDC_ASSET_NAME,
      usdcVersion: e.USDC_ASSET_VERSION,
      /** `maxTimeoutSeconds` of every requirement: how long a signed authorization may stay valid. */
      maxTimeoutSeconds: e.X402_MAX_TIMEOUT_SECONDS,
      /** Base URL of the x402 facilitator (`/verify`, `/settle`, `/supported`). */
      facilitatorUrl: e.X402_FACILITATOR_URL.replace(/\/+$/, ''),
      /** Deadline of one facilitator call. */
      facilitatorTimeoutMs: e.X402_FACILITATOR_TIMEOUT_MS,
      /** How long the API waits for a settlement job before answering 504 (the payment stays replayable). */
      settleWaitMs: e.SETTLEMENT_WAIT_TIMEOUT_MS,
      /**
       * Settlement jobs one worker process runs at once. They wait on the facilitator and a block,
       * not the CPU, so this is sized by the paid rate a worker must carry times the settlement
       * latency (README "Performance"), bounded by what the facilitator accepts, not by cores.
       */
      settlementConcurrency: e.SETTLEMENT_CONCURRENCY,
      /**
       * Per-call payments one web process works on at once before their settlement (verification,
       * reservation, the work, the stored result): the gate adapts between these bounds to the latency
       * of that work; equal bounds fix it.
       */
      admission: { min: e.PAID_ADMISSION_MIN, max: e.PAID_ADMISSION_MAX },
      /**
       * A scored authorization still unsettled after this long is checked against the chain by the
       * maintenance reconciler, like one whose settlement outcome is unknown (a worker died mid-settlement).
       */
      reconcileAfterSeconds: e.SETTLEMENT_RECONCILE_AFTER_SECONDS,
      /** A bundle redemption still reserved after this long was abandoned: its credit is given back. */
      abandonedRedemptionSeconds: e.BUNDLE_REDEMPTION_ABANDONED_SECONDS,
      /**
       * Public origin of the service (`https://host[:port]`): `resource.url` of every challenge and every
       * absolute URL of the discovery documents. Unset: the request's own protocol and Host, and for
       * discovery documents only when no proxy is trusted (behind one they answer 503 until it is set).
       */
      publicBaseUrl: e.PUBLIC_BASE_URL,
      /** x402 v1 network name of the legacy SOL rail. */
      legacyNetwork: e.X402_LEGACY_NETWORK,
      /** Solana JSON-RPC endpoint that legacy payments are verified against (read-only). */
      solanaRpcUrl: e.SOLANA_RPC_URL,
      /**
       * EVM JSON-RPC endpoint of the USDC network, read-only, for wallet signatures only a contract
       * can vouch for (ERC-1271/6492: smart-wallet payments and bundle recovery). Unset: keys' signatures only.
       */
      evmRpcUrl: e.EVM_RPC_URL,
      /** Treasury receiving addresses published in the pricing manifest (unset: published as null). */
      treasury: { evm: e.TREASURY_EVM_ADDRESS, solana: e.TREASURY_SOLANA_ADDRESS },
    },
  };
}

/**
 * Why this configuration cannot serve behind its proxy, if it cannot: with trusted proxy hops and no
 * `PUBLIC_BASE_URL`, every discovery document, llms.txt and the starter kit would answer 503 at
 * request time (a forwarded Host is not trusted to name the public origin), so web and `npm start`
 * refuse to start with this one line instead.
 * @param config - the loaded config
 * @returns the line to print, or undefined when the configuration is usable
 */
export function publicOriginProblem(config: Pick<AppConfig, 'http' | 'payments'>): string | undefined {
  if (config.http.trustedProxyHops === 0 || config.payments.publicBaseUrl) return undefined;
  return (
    `TRUSTED_PROXY_HOPS is ${config.http.trustedProxyHops} but PUBLIC_BASE_URL is unset: behind a proxy the service does not ` +
    'guess its public address from forwarded headers; set PUBLIC_BASE_URL to it (e.g. https://humanlike.example.com)'
  );
}
