import { offeringById } from './offerings';

/** One curated developer intent: what a developer arrives wanting to do, and what serves it. */
export interface CatalogJob {
  /** Stable kebab-case id; never renamed (matches and handoffs are keyed by it). */
  readonly job_slug: string;
  readonly title: string;
  readonly description: string;
  /** The service's offerings that do the job, best first. */
  readonly offering_ids: readonly string[];
  /**
   * The words and phrases the matcher looks for, with a weight each (3 for a word that names the
   * job, 2 for a strong hint, 1 for a weak one), as people write them; the matcher normalizes them
   * and the query alike (see `normalizeTerms`).
   */
  readonly keywords: Readonly<Record<string, number>>;
}

const CURATED: CatalogJob[] = [
  {
    job_slug: 'check-replies-before-sending',
    title: "Check my support bot's replies before they go out",
    description: 'Score each reply an agent drafts against the personality it should sound like, and get a prompt addition that fixes what reads as machine-written.',
    offering_ids: ['simulate', 'starter-kit'],
    keywords: { check: 2, reply: 3, support: 3, bot: 1, before: 1, send: 2, score: 2, chatbot: 2, customer: 2, ticket: 2, human: 1, review: 1 },
  },
  {
    job_slug: 'embed-check-in-my-app',
    title: 'Add a human-likeness check to a text box on my site',
    description: "Put the <humanlike-check> component on your own page: it marks machine-like phrasing in a draft as it is typed, through your own server and prepaid credits.",
    offering_ids: ['embedded-check', 'bundle'],
    keywords: { embed: 3, component: 3, widget: 3, snippet: 3, editor: 2, textbox: 2, textarea: 2, site: 2, page: 1, html: 2, browser: 2, frontend: 2, draft: 2, typing: 1 },
  },
  {
    job_slug: 'stress-test-personalities',
    title: 'Stress-test my agent across personalities',
    description: 'Score one reply against all 28 human personality profiles at once and see which ones it fits and which it fails.',
    offering_ids: ['stress-test'],
    keywords: { stress: 3, personality: 3, persona: 3, profile: 2, all: 1, across: 1, every: 1, robustness: 2, test: 1, fit: 1 },
  },
  {
    job_slug: 'agent-check-over-mcp',
    title: 'Add a human-likeness check to my agent over MCP',
    description: 'Connect an MCP client (an agent or IDE) to the scoring tools; paid tools take the same x402 payments as the HTTP API.',
    offering_ids: ['mcp'],
    keywords: { mcp: 3, 'model context protocol': 3, tool: 2, claude: 2, cursor: 2, ide: 1, agent: 1, server: 1, connect: 1, plugin: 1 },
  },
  {
    job_slug: 'rewrite-robotic-replies',
    title: 'Rewrite replies that sound robotic',
    description: 'Send a machine-sounding reply and get it back rewritten so it reads as written by a person in the chosen profile.',
    offering_ids: ['rewrite'],
    keywords: { rewrite: 3, robotic: 3, rephrase: 3, fix: 2, humanize: 3, natural: 2, tone: 1, sound: 1, edit: 1, improve: 1 },
  },
  {
    job_slug: 'check-script-adherence',
    title: 'Check that my bot keeps to its script',
    description: 'Compare a reply with the script it must follow: missing required points, changed numbers and claims the script does not make.',
    offering_ids: ['script-check'],
    keywords: { script: 3, adherence: 3, compliance: 3, policy: 2, claim: 2, number: 1, required: 1, follow: 1, guideline: 2, keep: 1 },
  },
  {
    job_slug: 'compare-two-bots',
    title: 'Compare two bots head to head',
    description: 'Enter two bots in a duel on the same prompt and profile; the higher EQ score wins, with a per-dimension comparison.',
    offering_ids: ['duel'],
    keywords: { duel: 3, compare: 3, versus: 3, vs: 3, 'head to head': 3, ab: 2, benchmark: 2, two: 1, competitor: 2, against: 1 },
  },
  {
    job_slug: 'track-score-progress',
    title: "Track how my agent's scores change over time",
    description: "A report of a wallet's score history: trend, streak, percentile and style drift.",
    offering_ids: ['progress'],
    keywords: { progress: 3, trend: 3, history: 3, track: 2, drift: 2, over: 1, time: 1, report: 2, monitor: 2, regression: 2 },
  },
  {
    job_slug: 'practice-conversations',
    title: 'Train my agent with practice conversations',
    description: 'Coaching drills toward a certificate for one profile, or an eight-turn role-play between two agents scored per turn.',
    offering_ids: ['coaching', 'roleplay'],
    keywords: { coaching: 3, coach: 3, drill: 3, practice: 3, roleplay: 3, 'role play': 3, train: 2, certificate: 2, conversation: 1, exercise: 2 },
  },
  {
    job_slug: 'export-training-data',
    title: 'Export scored sessions as training data',
    description: "Download the wallet's scored sessions as a dataset to fine-tune or evaluate a model.",
    offering_ids: ['training-dataset'],
    keywords: { export: 3, dataset: 3, data: 2, 'fine tune': 3, finetune: 3, training: 2, download: 2, jsonl: 3, csv: 2, eval: 1 },
  },
];

/**
 * The ten developer intents, in curated order (the matcher's tie-break: an earlier job wins a tie).
 * Adding, removing or renaming one changes public answers and the golden tests that pin them.
 */
export const CATALOG_JOBS: readonly CatalogJob[] = Object.freeze(
  CURATED.map((job): CatalogJob => Object.freeze({ ...job, offering_ids: Object.freeze([...job.offering_ids]), keywords: Object.freeze({ ...job.keywords }) })),
);

const BY_SLUG: ReadonlyMap<string, CatalogJob> = new Map(CATALOG_JOBS.map((j) => [j.job_slug, j]));

/** Every job slug, in curated order (the schema's enum). */
export const JOB_SLUGS: readonly string[] = Object.freeze(CATALOG_JOBS.map((j) => j.job_slug));

/**
 * One curated job by slug.
 * @param slug - job slug
 * @returns the job, or undefined
 */
export function jobBySlug(slug: string): CatalogJob | undefined {
  return BY_SLUG.get(slug);
}

// A job naming an offering that does not exist is a programming error: fail at load, not at a request.
for (const job of CATALOG_JOBS) {
  for (const id of job.offering_ids) if (!offeringById(id)) throw new Error(`catalog job ${job.job_slug} names an unknown offering ${id}`);
}
