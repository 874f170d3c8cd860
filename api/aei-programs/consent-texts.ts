/**
 * The consent texts of the programs, versioned: a person accepts one version, the service stores
 * which, and a changed text gets a new version that must be accepted anew.
 */
export interface ConsentText {
  version: string;
  text: string;
}

/** What a rater of the wording review agrees to. */
export const WORDING_REVIEW_CONSENT: ConsentText = {
  version: 'wording-review-2026-01',
  text:
    'You will rate short replies on four scales (how human, how warm, how direct, how hesitant). The replies come only from ' +
    'people who agreed to this use, and are shown without any name, account or address. We store your ratings with a random ' +
    'session, never your identity, and use them to measure and calibrate our scorer; results are published only as aggregates. ' +
    'Some items check attention by telling you how to rate them; if you miss two, your ratings are left out of calibration and ' +
    'nothing else happens. Your token is shown once; with it you can delete your session and every rating in it at any time.',
};

/** What a pilot participant agrees to when enrolling. */
export const PILOT_CONSENT: ConsentText = {
  version: 'pilot-2026-01',
  text:
    'You will be invited, at the times you choose, to hold short conversations with AI agents of companies that sponsor the ' +
    'pilot, and to rate how each agent reply read to you (how human, how warm, how direct, how hesitant). You are never told ' +
    'which company or profile is behind an agent. We store your replies, how long you took before each one, your ratings and ' +
    'your preferences with a random participant id, never your name, address or account; the sponsor whose agent you talked ' +
    'to receives the conversation through its agent, and only aggregates of five or more people are reported. Your token is ' +
    'shown once. With it you can pause, resume, and delete everything of yours at any time: deletion removes every row, and ' +
    'only an anonymous count of deletions remains. Using your replies and ratings to calibrate our scorer needs a separate ' +
    'consent (model consent), which you may give or withdraw at any time.',
};

/** The separate, revocable consent of a pilot participant to calibration use. */
export const PILOT_MODEL_CONSENT: ConsentText = {
  version: 'pilot-model-2026-01',
  text:
    'Your replies in pilot conversations may be shown, without any identity, to raters of the wording review, and your ratings ' +
    "of agents' replies may be set against our scorer's, to measure and calibrate it; results are published only as " +
    'aggregates. Withdrawing this consent removes your replies from the wording review (with the ratings others gave them) and ' +
    'your ratings from calibration at once; your conversations stay in the pilot until you delete them.',
};
