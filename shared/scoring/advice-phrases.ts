import type { DimensionId } from './measure-types';

/** Which way a dimension must move to reach its target. */
export type Direction = 'up' | 'down';

/**
 * How far the advice may push. `full` when the profile's target lies on the side the advice pushes
 * toward; `mild` when it lies on the other side of the middle, so the advice only trims an excess
 * and never contradicts the profile (an anxious overthinker is never told to drop sympathy, a shy
 * student never to skip the cushioning).
 */
export type Strength = 'full' | 'mild';

/** The conversation the example must fit: grief and distress, or a practical exchange. */
export type Situation = 'emotional' | 'practical';

/** One piece of advice: prompt line, rewrite action and an example that fits the situation. */
export interface PhraseSet {
  /** A sentence for the agent's system prompt. */
  prompt: string;
  /** The rewrite action for the operator. */
  action: string;
  /** A before/after example edit, per situation. */
  example: Record<Situation, string>;
}

/**
 * One deterministic phrase per dimension, direction and strength. Empathy
 * "up" is chosen by the missing EPITOME mechanism instead (see {@link EMPATHY_UP_PHRASES}), so the
 * advice never asks for what the reply already does.
 */
export const DIMENSION_PHRASES: Record<DimensionId, Record<Direction, Record<Strength, PhraseSet>>> = {
  empathy: {
    up: {
      full: {
        prompt: 'Acknowledge how they feel, in your own words, before you advise.',
        action: 'add one reflective sentence about how they feel before the advice',
        example: {
          emotional: '"Let me know if you need anything." -> "That is so much to carry right now. Let me know if you need anything."',
          practical: '"Try restarting it." -> "Ugh, that sounds really frustrating. Try restarting it."',
        },
      },
      mild: {
        prompt: 'Add a brief human acknowledgement before the answer; one short phrase is enough.',
        action: 'add a few words that acknowledge their situation',
        example: {
          emotional: '"Here are the forms." -> "Sorry you\'re dealing with this. Here are the forms."',
          practical: '"Try restarting it." -> "Annoying, I know. Try restarting it."',
        },
      },
    },
    down: {
      full: {
        prompt: 'Keep sympathy to a few words and get to the practical point.',
        action: 'cut the feelings talk to one short line and answer the question',
        example: {
          emotional: '"I am so deeply sorry, I cannot imagine how painful this is, my heart goes out to you..." -> "So sorry. The form is on the second page."',
          practical: '"I completely understand how stressful this must feel for you..." -> "Annoying, I know. Run the migration again."',
        },
      },
      mild: {
        prompt: 'Keep your warmth, but say it once; let the rest of the reply answer them.',
        action: 'keep one warm line and trim the repeated sympathy',
        example: {
          emotional: '"I\'m so sorry. I\'m really so sorry. That\'s so sad, I\'m sorry." -> "I\'m so sorry. That\'s so sad."',
          practical: '"Oh no, so sorry, that\'s awful, so sorry!" -> "Oh no, that\'s awful. Try the spare key?"',
        },
      },
    },
  },
  formality: {
    up: {
      full: {
        prompt: 'Write complete, capitalized sentences with proper punctuation; avoid slang.',
        action: 'write full sentences with capitals and punctuation, without slang',
        example: { emotional: '"omg so sorry thats awful" -> "I am so sorry. That is awful."', practical: '"yeah that should work lol" -> "Yes, that should work."' },
      },
      mild: {
        prompt: 'Stay casual, but start sentences with a capital and end them with punctuation.',
        action: 'add capitals and full stops without changing the casual wording',
        example: { emotional: '"so sorry thats awful" -> "So sorry, that\'s awful."', practical: '"yeah that should work" -> "Yeah, that should work."' },
      },
    },
    down: {
      full: {
        prompt: 'Write casually: contractions always, short sentences, everyday words.',
        action: 'loosen the register: contractions, shorter sentences, everyday words',
        example: {
          emotional: '"I am deeply sorry to learn of your loss." -> "I\'m so sorry about your mum."',
          practical: '"I would be glad to assist you with that request." -> "sure, happy to help"',
        },
      },
      mild: {
        prompt: 'Stay courteous, but use plainer words and the odd contraction.',
        action: 'swap a stiff phrase or two for plainer words',
        example: {
          emotional: '"Please accept my sincere condolences." -> "I\'m very sorry for your loss."',
          practical: '"I would be glad to assist you with that request." -> "I\'d be glad to help with that."',
        },
      },
    },
  },
  directness: {
    up: {
      full: {
        prompt: 'Lead with the answer; skip thanks, apologies and preambles.',
        action: 'put the answer in the first sentence and drop the cushioning',
        example: {
          emotional: '"I was just wondering whether maybe you might want to talk?" -> "Want to talk tonight?"',
          practical: '"I was wondering if you could maybe check the logs?" -> "Check the logs."',
        },
      },
      mild: {
        prompt: 'Keep your politeness, but say the main point plainly once.',
        action: 'keep the polite wording and state the main point in one plain sentence',
        example: {
          emotional: '"I don\'t know, maybe, if you wanted, we could perhaps talk?" -> "Would you like to talk tonight?"',
          practical: '"Sorry, I was maybe wondering if possibly the logs..." -> "Sorry to ask, could you check the logs?"',
        },
      },
    },
    down: {
      full: {
        prompt: 'Soften requests and instructions: a "could you", a thanks, a little cushioning.',
        action: 'turn bare instructions and blunt questions into polite requests',
        example: {
          emotional: '"Call your sister." -> "Could you call your sister tonight? I think it would help."',
          practical: '"Send it today." -> "Could you send it today? Thanks!"',
        },
      },
      mild: {
        prompt: 'Stay direct, but add a word of courtesy to instructions.',
        action: 'add a "please" or a thanks to the bare instruction',
        example: { emotional: '"Call your sister." -> "Call your sister, please, tonight."', practical: '"Send it today." -> "Send it today, thanks."' },
      },
    },
  },
  hesitation: {
    up: {
      full: {
        prompt: 'Show real uncertainty where it exists ("I think", "probably", a trailing "..."), not false confidence.',
        action: 'hedge the claims you are unsure of',
        example: {
          emotional: '"It will get better." -> "I think it gets a little easier, maybe not soon though..."',
          practical: '"It\'s the cache." -> "I think it\'s probably the cache..."',
        },
      },
      mild: {
        prompt: 'Where you are not sure, say so once ("I think").',
        action: 'add one "I think" to the claim you are least sure of',
        example: { emotional: '"It will get better." -> "I think it will get easier."', practical: '"It\'s the cache." -> "I think it\'s the cache."' },
      },
    },
    down: {
      full: {
        prompt: 'Be decisive: drop "maybe", "I think" and trailing-off when you know the answer.',
        action: 'remove hedges and fillers from claims you are sure of',
        example: {
          emotional: '"I think maybe it might help to sort of talk to someone?" -> "Talking to someone will help."',
          practical: '"I think it might maybe be the cache?" -> "It\'s the cache."',
        },
      },
      mild: {
        prompt: 'Keep your "I think", but drop stacked hedges ("maybe possibly sort of").',
        action: 'keep one hedge per claim and cut the stacked ones',
        example: {
          emotional: '"I think maybe it might sort of help to talk?" -> "I think it might help to talk?"',
          practical: '"I think it might maybe possibly be the cache" -> "I think it\'s the cache"',
        },
      },
    },
  },
};

/**
 * Formality to lower for a reply that already contracts: "contractions always" would ask for what it
 * already does, so only sentence length and word choice are named.
 */
export const FORMALITY_DOWN_CONTRACTED: Record<Strength, PhraseSet> = {
  full: {
    prompt: 'Write casually: short sentences, everyday words.',
    action: 'loosen the register: shorter sentences, everyday words',
    example: {
      emotional: '"I am deeply sorry to learn of your loss; it is a profound grief." -> "I\'m so sorry about your mum."',
      practical: '"I\'d be glad to assist you with that particular request." -> "sure, happy to help"',
    },
  },
  mild: {
    prompt: 'Stay courteous, but use plainer words.',
    action: 'swap a stiff phrase or two for plainer words',
    example: {
      emotional: '"Please accept my sincere condolences." -> "I\'m very sorry for your loss."',
      practical: '"I\'d be glad to assist you with that request." -> "I\'d be glad to help with that."',
    },
  },
};

/**
 * Empathy to raise, by the first construct the reply lacks among those the score rewards: a reply
 * that already says "so sorry" is asked to reflect, one that reflects to tie it to their words, one
 * that does both to say what it must be like for them; one that reflects but does not react, to add its
 * own feeling for them; never to "acknowledge how they feel" again.
 * (Asking a question is not offered: its weight is 0, because its sign flips between communities.)
 */
export const EMPATHY_UP_PHRASES: Record<'er' | 'reaction' | 'ip' | 'ex' | 'specific' | 'perspective', PhraseSet> = {
  er: DIMENSION_PHRASES.empathy.up.full,
  // For a reply that already reflects how they feel but shows no feeling of its own for them.
  reaction: {
    prompt: 'After you show you understood, add a few words of your own feeling about what happened to them.',
    action: 'add one short line of your own reaction to what happened ("that\'s so unfair", "I\'m sorry")',
    example: {
      emotional: '"Sounds like you did the whole move alone." -> "Sounds like you did the whole move alone. That\'s so unfair on you."',
      practical: '"So the order came broken, on your birthday." -> "So the order came broken, on your birthday. I\'m sorry, that\'s rotten luck."',
    },
  },
  ip: {
    prompt: 'Show you understood: reflect back what they told you, or share briefly when something similar happened to you.',
    action: 'add one sentence that reflects what they said ("sounds like...", "when that happened to me...")',
    example: {
      emotional: '"So sorry." -> "So sorry. Sounds like the last weeks with her were really hard."',
      practical: '"Sorry about that." -> "Sorry about that. Sounds like it broke right before your deadline."',
    },
  },
  ex: {
    prompt: 'Ask one gentle question about how they are doing or what they need.',
    action: 'add one open question about them',
    example: {
      emotional: '"So sorry, that sounds so hard." -> "So sorry, that sounds so hard. How are you holding up?"',
      practical: '"Sorry, that\'s annoying." -> "Sorry, that\'s annoying. Is it blocking you right now?"',
    },
  },
  perspective: {
    prompt: 'Say what it must be like for them, from where they stand.',
    action: 'add one sentence imagining it from their side ("I can imagine...", "that must have been...")',
    example: {
      emotional: '"Sorry, that sounds hard." -> "Sorry, that sounds hard. I can imagine the house feels very quiet now."',
      practical: '"Sorry, that\'s annoying." -> "Sorry, that\'s annoying. I can imagine how much time that ate on deadline day."',
    },
  },
  specific: {
    prompt: 'Make the warmth specific: name what they told you instead of a general "sorry".',
    action: 'tie your sympathy to a detail from their message',
    example: {
      emotional: '"Sorry for your loss." -> "I\'m so sorry about your dad. Forty years of Sunday calls is a lot to miss."',
      practical: '"Sorry for the trouble." -> "Sorry the order arrived broken, on your birthday too."',
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
