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
