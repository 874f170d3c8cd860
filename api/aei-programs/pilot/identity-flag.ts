/** What identifies a sponsor in text: its name and its domains. */
export interface SponsorIdentity {
  name: string;
  domains: readonly string[];
}

/** What participants read where an agent named its sponsor. */
export const HIDDEN_IDENTITY = '[hidden]';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Whole words only, in any letter case ("Acme" matches "ACME's", not "Acmetrics").
function identityPattern(identity: SponsorIdentity): RegExp | undefined {
  // Longest first, so a domain that starts with the name is hidden whole, not as the name plus a tail.
  const terms = [identity.name, ...identity.domains]
    .map((t) => t.trim())
    .filter((t) => t.length >= 2)
    .sort((a, b) => b.length - a.length);
  if (terms.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

/**
 * Whether a text names the sponsor or one of its domains.
 * @param text - the text
 * @param identity - the sponsor's name and domains
 * @returns true when it does
 */
export function namesSponsor(text: string, identity: SponsorIdentity): boolean {
  const pattern = identityPattern(identity);
  return pattern !== undefined && pattern.test(text);
}

/**
 * An agent's reply as a participant may read it: every mention of the sponsor hidden, and whether
 * there was one (the turn is then flagged for the operator, and the pilot stays blind).
 * @param text - the agent's reply
 * @param identity - the sponsor's name and domains
 * @returns the text to show and store, and the flag
 */
export function blindReply(text: string, identity: SponsorIdentity): { text: string; flagged: boolean } {
  const pattern = identityPattern(identity);
  if (!pattern) return { text, flagged: false };
  let flagged = false;
  const blinded = text.replace(pattern, () => {
    flagged = true;
    return HIDDEN_IDENTITY;
  });
  return { text: blinded, flagged };
}
