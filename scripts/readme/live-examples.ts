// The README's commands as a newcomer runs them against a fresh `npm start`: each `sh` block of
// the user's guide, with only what the guide tells the reader to fill in filled in (the printed
// test key and test USDC address, and the stack's address when it is not localhost:3000), and
// what each must answer: the answer the document shows below it (where `…` stands for what
// differs at every call), or, for a command whose answer the text describes in words, a check
// of that description.

/** A command of a document and what it must answer. */
export interface LiveExample {
  /** Where it stands: `README.md:123`. */
  where: string;
  /** The command as written. */
  command: string;
  /** The answer the document shows below it (its fence's language and text), when it shows one. */
  shown?: { lang: string; text: string };
}

/** What the reader fills in: the stack's base URL, the funded test key and the test USDC it printed. */
export interface FillIns {
  url: string;
  privateKey: string;
  asset: string;
}

const FENCE = /^```([a-z]*)\n([\s\S]*?)\n```$/gm;
// Commands that start the service or its tests are the quick start itself, not examples to run against it.
const NOT_AN_EXAMPLE = /^npm (install|start|test)\b/;

/**
 * The runnable examples of a Markdown document: every `sh` block that is not the quick start,
 * each with the answer block that follows it when no other command comes between.
 * @param doc - the Markdown text
 * @param file - its name, for `where`
 * @returns the examples in document order
 */
export function examplesOf(doc: string, file: string): LiveExample[] {
  const fences = [...doc.matchAll(FENCE)].map((m) => ({ lang: m[1], text: m[2], at: m.index, end: m.index + m[0].length }));
  const examples: LiveExample[] = [];
  fences.forEach((fence, i) => {
    if (fence.lang !== 'sh' || NOT_AN_EXAMPLE.test(fence.text)) return;
    const next = fences[i + 1];
    // An answer belongs to the command when only prose (at most a short lead-in line) stands between them.
    const between = next ? doc.slice(fence.end, next.at) : '';
    const answers = next && (next.lang === 'json' || next.lang === 'text') && between.trim().split('\n').filter(Boolean).length <= 1;
    examples.push({
      where: `${file}:${doc.slice(0, fence.at).split('\n').length}`,
      command: fence.text,
      shown: answers ? { lang: next.lang, text: next.text } : undefined,
    });
  });
  return examples;
}

/**
 * The command with what the reader fills in filled in: the key for `HUMANLIKE_PRIVATE_KEY=0x…`,
 * the test USDC for `<the test USDC npm start printed>`, and the stack's address for
 * localhost:3000 (the CLI's default, so `humanlike pay` is given `--url` when the stack is elsewhere).
 * @param command - as written
 * @param fill - the values
 * @returns the command to run
 */
export function fillIn(command: string, fill: FillIns): string {
  const base = fill.url.replace(/\/$/, '');
  let out = command
    .replaceAll('HUMANLIKE_PRIVATE_KEY=0x…', `HUMANLIKE_PRIVATE_KEY=${fill.privateKey}`)
    .replaceAll('<the test USDC npm start printed>', fill.asset)
    .replace(/(https?:\/\/)?localhost:3000/g, base);
  if (base !== 'http://localhost:3000') out = out.replace(/\bhumanlike pay\b/g, `humanlike pay --url ${base}`);
  return out;
}

/**
 * Whether what a command printed is the answer the document shows. In text, `…` stands for any
 * run of characters within a line; in JSON, a `"…"` value stands for any value, an object shown
 * need only have its keys present (the document may leave some out), and everything else must be equal.
 * @param printed - the command's standard output
 * @param shown - the answer block
 * @returns undefined when it matches, else what differs first
 */
export function differenceFromShown(printed: string, shown: { lang: string; text: string }): string | undefined {
  if (shown.lang === 'json') {
    let actual: unknown;
    try {
      actual = JSON.parse(printed);
    } catch {
      return `printed no JSON: ${printed.slice(0, 200)}`;
    }
    return jsonDifference(actual, JSON.parse(shown.text) as unknown, '$');
  }
  const got = printed.replace(/\n+$/, '').split('\n');
  const want = shown.text.split('\n');
  for (let i = 0; i < Math.max(got.length, want.length); i += 1) {
    if (want[i] === undefined) return `line ${i + 1}: printed an extra line ${JSON.stringify(got[i])}`;
    if (got[i] === undefined) return `line ${i + 1}: expected ${JSON.stringify(want[i])}, printed nothing more`;
    if (!linePattern(want[i]).test(got[i])) return `line ${i + 1}: expected ${JSON.stringify(want[i])}, printed ${JSON.stringify(got[i])}`;
  }
  return undefined;
}

function linePattern(line: string): RegExp {
  const parts = line.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+?')}$`);
}

function jsonDifference(actual: unknown, shown: unknown, at: string): string | undefined {
  if (shown === '…') return actual === undefined ? `${at}: missing` : undefined;
  if (typeof shown === 'string' && shown.includes('…')) {
    return typeof actual === 'string' && linePattern(shown).test(actual) ? undefined : `${at}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length) return `${at}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < shown.length; i += 1) {
      const d = jsonDifference(actual[i], shown[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(shown)) {
      const d = jsonDifference((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(actual, shown) ? undefined : `${at}: expected ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`;
}

/**
 * What the guide says in words a command answers, for the commands it shows no answer for: a
 * check of the printed output, keyed by what the command calls. A new command without a shown
 * answer needs its entry here, so no example goes unchecked.
 */
export const DESCRIBED_ANSWERS: ReadonlyArray<{ calls: RegExp; says: string; check(printed: string): boolean }> = [
  {
    calls: /\/api\/wishlist\b/,
    says: 'the wishlist item is recorded (no error)',
    check: (printed) => isJsonWithout(printed, 'error'),
  },
  {
    calls: /--product bundle\b/,
    says: 'the bundle is bought and its bundle_token shown once',
    check: (printed) => /^Bundle token \(shown this once[^\n]*: \S+$/m.test(printed) && /^Receipt: \{"success":true/m.test(printed),
  },
  {
    calls: /\/api\/card\/checkout\b/,
    says: 'a checkout_url to open and the pack\'s bundle_token',
    check: (printed) => hasKeys(printed, ['checkout_url', 'bundle_token']),
  },
  {
    calls: /\/api\/catalog\/free-installs\/start\b/,
    says: 'a workflow id and a challenge to publish',
    check: (printed) => hasKeys(printed, ['workflow_id', 'challenge']),
  },
];

function parsed(printed: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(printed) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isJsonWithout(printed: string, key: string): boolean {
  const body = parsed(printed);
  return body !== undefined && !(key in body);
}

function hasKeys(printed: string, keys: string[]): boolean {
  const body = parsed(printed);
  return body !== undefined && keys.every((k) => k in body);
}
