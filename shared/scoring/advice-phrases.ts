import type { DimensionId } from './measure-types';

/** Which way a dimension must move to reach its target. */
export type Direction = 'up' | 'down';

interface PhraseSet {
  /** A sentence for the agent's system prompt. */
  prompt: string;
  /** The rewrite action for the operator. */
  action: string;
  /** A before/after example edit. */
  example: string;
}

// One deterministic phrase per dimension and direction (docs/scoring.md §8, system-prompt addition).
export const DIMENSION_PHRASES: Record<DimensionId, Record<Direction, PhraseSet>> = {
  empathy: {
    up: {
      prompt: 'Acknowledge how they feel, in your own words, before you advise.',
      action: 'add one reflective sentence about how they feel before the advice',
      example: '"Try restarting it." -> "Ugh, that sounds really frustrating. Try restarting it."',
    },
    down: {
      prompt: 'Keep sympathy to a few words and get to the practical point.',
      action: 'cut the feelings talk to one short line and answer the question',
      example: '"I completely understand how stressful this must feel for you..." -> "Annoying, I know. Run the migration again."',
    },
  },
  formality: {
    up: {
      prompt: 'Write complete, capitalized sentences with proper punctuation; avoid slang.',
      action: 'write full sentences with capitals and punctuation, without slang',
      example: '"yeah that should work lol" -> "Yes, that should work."',
    },
    down: {
      prompt: 'Write casually: contractions always, short sentences, everyday words.',
      action: 'loosen the register: contractions, shorter sentences, everyday words',
      example: '"I would be glad to assist you with that request." -> "sure, happy to help"',
    },
  },
  directness: {
    up: {
      prompt: 'Lead with the answer; skip thanks, apologies and preambles.',
      action: 'put the answer in the first sentence and drop the cushioning',
      example: '"I was wondering if you could maybe check the logs?" -> "Check the logs."',
    },
    down: {
      prompt: 'Soften requests and instructions: a "could you", a thanks, a little cushioning.',
      action: 'turn bare instructions into polite requests',
      example: '"Send it today." -> "Could you send it today? Thanks!"',
    },
  },
  hesitation: {
    up: {
      prompt: 'Show real uncertainty where it exists ("I think", "probably", a trailing "..."), not false confidence.',
      action: 'hedge the claims you are unsure of',
      example: '"It\'s the cache." -> "I think it\'s probably the cache..."',
    },
    down: {
      prompt: 'Be decisive: drop "maybe", "I think" and trailing-off when you know the answer.',
      action: 'remove hedges and fillers from claims you are sure of',
      example: '"I think it might maybe be the cache?" -> "It\'s the cache."',
    },
  },
};

/** Prompt lines and rewrite actions per machine signal id. */
export const SIGNAL_PHRASES: Record<string, { prompt: string; action: string; example: string }> = {
  'ai-self-disclosure': {
    prompt: 'Do not open with canned disclaimers such as "As an AI language model"; if someone asks whether you are an AI, say so honestly and briefly.',
    action: 'delete the canned disclaimer (an honest answer when asked is fine)',
    example: '"As an AI language model, I cannot recommend..." -> "I wouldn\'t recommend..."',
  },
  'assistant-boilerplate': {
    prompt: 'No assistant openers or closers.',
    action: 'delete the assistant opener or closer',
    example: '"Certainly! Here is the answer. I hope this helps!" -> "Here\'s the answer."',
  },
  'excess-vocab': {
    prompt: 'Use everyday words instead of showy ones.',
    action: 'replace showy words with everyday ones',
    example: '"delve into" -> "look at"; "pivotal" -> "key"',
  },
  'markdown-structure': {
    prompt: 'Reply in plain chat text: no headings, bullet lists, bold or tables.',
    action: 'rewrite the list or heading as one or two plain sentences',
    example: '"**Steps:**\\n- restart\\n- clear cache" -> "restart it, then clear the cache"',
  },
  'uniform-sentences': {
    prompt: 'Vary sentence length: mix very short sentences with longer ones.',
    action: 'merge two sentences or cut one down to a few words',
    example: '"It works. It is fast. It is cheap." -> "It works, and it\'s fast and cheap. Nice."',
  },
  'no-contractions': {
    prompt: 'Use contractions (I\'m, don\'t, it\'s) as people do in chat.',
    action: 'contract the expanded forms',
    example: '"I do not think it is ready" -> "I don\'t think it\'s ready"',
  },
  'em-dash': {
    prompt: 'Use commas or full stops instead of em dashes.',
    action: 'replace the em dashes with commas or full stops',
    example: '"it works — mostly" -> "it works, mostly"',
  },
  signposting: {
    prompt: 'Drop signposting such as "It\'s worth noting" or "In summary"; just say the thing.',
    action: 'delete the signposting phrase',
    example: '"It\'s worth noting that the store closes at 5." -> "The store closes at 5."',
  },
  'generic-caveat': {
    prompt: 'Skip generic caveats ("it depends", "it\'s always best to consult"); give your actual view.',
    action: 'replace the generic caveat with a concrete answer',
    example: '"It varies depending on many factors." -> "Usually about a week."',
  },
  'length-mismatch': {
    prompt: 'Keep replies short.',
    action: 'cut the reply to its main point',
    example: 'keep the first sentence that answers the question and drop the rest',
  },
  'relentless-positivity': {
    prompt: 'Match their tone; not every line needs to be upbeat.',
    action: 'replace one cheerful line with a neutral one',
    example: '"Amazing! Wonderful! Great choice!" -> "Good choice."',
  },
  'superhuman-latency': {
    prompt: '',
    action: 'wait before sending: no one reads and types this fast',
    example: 'hold the reply until at least the expected delay has passed',
  },
};

/** A fallback for signal ids added later without a phrase. */
export const GENERIC_SIGNAL_PHRASE = {
  prompt: 'Avoid stock assistant phrasing.',
  action: 'rewrite the flagged phrase in your own words',
  example: 'say it the way you would to a colleague',
};
