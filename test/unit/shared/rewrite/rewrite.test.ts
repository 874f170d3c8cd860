import { expect } from 'chai';
import { PROFILES } from '../../../../shared/profiles';
import { ScoringInputError, scoreText } from '../../../../shared/scoring';
import { claimsHuman, keepsAiHonesty } from '../../../../shared/rewrite/human-claim';
import { rewriteText, type RewriteResult } from '../../../../shared/rewrite/rewrite';

const INCOMING = 'my deploy keeps failing and I am honestly so stressed about it';
const ASSISTANT =
  'Certainly! It is important to note that you should restart the server. Furthermore, it is crucial to check the logs — they will show the error. I hope this helps! Let me know if you have any other questions.';
const DISCLOSURES = [
  "I'm sorry, but as an AI I cannot see your server. Try restarting it and reading the logs.",
  'Restart the server and check the logs. If that fails, roll back the deploy and page whoever is on call. As an AI, I cannot see your logs myself.',
  'I am an AI assistant, so I do not have feelings, but I can help. It is not hard to fix: restart the service.',
];

function replay(original: string, r: RewriteResult): string {
  let out = '';
  let at = 0;
  for (const e of r.edits) {
    out += original.slice(at, e.start) + e.after;
    at = e.end;
  }
  return out + original.slice(at);
}

describe('rewriteText', function () {
  it('is deterministic: the same input gives the same rewrite', function () {
    const input = { text: ASSISTANT, profile: 'warm-casual-texter', delaySeconds: 30, incoming: INCOMING };
    const a = rewriteText(input);
    rewriteText({ text: DISCLOSURES[1], profile: 'formal-concierge' });
    expect(rewriteText(input)).to.deep.equal(a);
  });

  it('places every edit exactly: original offsets, rewritten offsets, and the edits rebuild the text', function () {
    const r = rewriteText({ text: ASSISTANT, profile: 'terse-senior-engineer', incoming: INCOMING });
    expect(r.changed).to.equal(true);
    expect(r.edits.length).to.be.greaterThan(2);
    const checked = r.edits.map((e) => ({ before: ASSISTANT.slice(e.start, e.end), after: r.text.slice(e.new_start, e.new_end) }));
    expect(checked).to.deep.equal(r.edits.map((e) => ({ before: e.before, after: e.after })));
    expect(replay(ASSISTANT, r)).to.equal(r.text);
    expect(r.edits.map((e) => e.start)).to.deep.equal([...r.edits.map((e) => e.start)].sort((x, y) => x - y));
    expect(r.text).to.not.match(/Certainly|hope this helps|any other questions/);
  });

  it('reports the after score the engine gives the rewritten text, never below the before score, for all 28 profiles', function () {
    const results = PROFILES.map((p) => ({ p, r: rewriteText({ text: ASSISTANT, profile: p.id, delaySeconds: 40, incoming: INCOMING }) }));
    expect(results).to.have.length(28);
    const rows = results.map(({ p, r }) => ({
      profile: p.id,
      reported: r.after.eq_score,
      engine: scoreText({ text: r.text, profile: p.id, delaySeconds: 40, incoming: INCOMING }).result?.eq_score,
      before: scoreText({ text: ASSISTANT, profile: p.id, delaySeconds: 40, incoming: INCOMING }).result?.eq_score,
    }));
    expect(rows.map((x) => x.reported)).to.deep.equal(rows.map((x) => x.engine));
    expect(rows.map((x) => x.before)).to.deep.equal(results.map(({ r }) => r.before.eq_score));
    expect(rows.filter((x) => (x.engine ?? 0) < (x.before ?? 0))).to.deep.equal([]);
    // The canned assistant reply improves for every profile.
    expect(rows.filter((x) => (x.engine ?? 0) <= (x.before ?? 0)).map((x) => x.profile)).to.deep.equal([]);
  });

  it('returns the text unchanged, and says so, when no edit raises the score', function () {
    const text = 'restart the api pod, then tail the logs.';
    const r = rewriteText({ text, profile: 'terse-senior-engineer', delaySeconds: 20, incoming: 'deploy is stuck, what now?' });
    expect(r.changed).to.equal(false);
    expect(r.text).to.equal(text);
    expect(r.edits).to.deep.equal([]);
    expect(r.after).to.deep.equal(r.before);
    expect(r.note).to.match(/unchanged/);
  });

  it('never makes the text claim to be human and never removes an AI self-disclosure, for any profile', function () {
    const outputs = DISCLOSURES.flatMap((text) => PROFILES.map((p) => ({ text, profile: p.id, r: rewriteText({ text, profile: p.id, incoming: INCOMING }) })));
    expect(outputs).to.have.length(DISCLOSURES.length * 28);
    expect(outputs.filter((o) => o.r.changed).length).to.be.greaterThan(0);
    const dishonest = outputs.filter((o) => claimsHuman(o.r.text) || !/\b(?:as an ai|i am an ai|i'm an ai)\b/i.test(o.r.text)).map((o) => `${o.profile}: ${o.r.text}`);
    expect(dishonest).to.deep.equal([]);
  });

  it('the honesty guard refuses a human claim, a denial of being an AI, and a dropped disclosure', function () {
    expect(keepsAiHonesty('Restart it.', "I'm human, restart it.")).to.equal(false);
    expect(keepsAiHonesty('Restart it.', "I'm not a bot. Restart it.")).to.equal(false);
    expect(keepsAiHonesty('Restart it.', "I've been there. Restart it.")).to.equal(false);
    expect(keepsAiHonesty('As an AI, I cannot see it. Restart it.', 'Restart it.')).to.equal(false);
    expect(keepsAiHonesty('As an AI, I cannot see it. Restart it.', "As an AI, I can't see it. Restart it.")).to.equal(true);
  });

  it('refuses an unknown profile with the engine input error', function () {
    expect(() => rewriteText({ text: 'hi', profile: 'pirate-captain' }))
      .to.throw(ScoringInputError)
      .with.property('code', 'unknown_profile');
  });
});
