/** Longest reply or incoming message the engine scores, in UTF-16 code units (chat, not documents). */
export const MAX_TEXT_CHARS = 20_000;

/** Longest plausible delay, in seconds (one week); beyond it the input is a mistake, not a cadence. */
export const MAX_DELAY_SECONDS = 7 * 24 * 3600;
