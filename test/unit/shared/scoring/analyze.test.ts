import { expect } from 'chai';
import { analyze } from '../../../../shared/scoring/analyze';
import { scoreText } from '../../../../shared/scoring';

const tokensOf = (text: string) => analyze(text).tokens.map((t) => t.text);

describe('analyze: results never depend on what the thread read before', () => {
  // wink-nlp adds unknown words to its lexicon; "Nobody else's." once added "else's" whole, and
  // every later "someone else's voice" was then tokenized (and scored) differently.
  const probe = "Just to hear someone else's voice.";
  const teacher = "It took me seven years to get a bachelors. Do it on your schedule. Nobody else's.";

  it('splits a possessive the same before and after a text that taught the tagger the whole word', () => {
    const expected = ['Just', 'to', 'hear', 'someone', 'else', "'s", 'voice', '.'];
    expect(tokensOf(probe)).to.deep.equal(expected);
    tokensOf(teacher);
    expect(tokensOf(probe)).to.deep.equal(expected);
  });

  it('scores a reply the same whatever was scored before it', () => {
    const input = { text: probe, delaySeconds: 12, profile: 'grief-support-peer', deep: true };
    const first = JSON.stringify(scoreText(input));
    scoreText({ text: teacher, incoming: "Nobody else's. Someone else's!", profile: 'all' });
    expect(JSON.stringify(scoreText(input))).to.equal(first);
  });

  it('keeps the words a document repeats consistent within that document', () => {
    const tokens = tokensOf("Zorblax's plan: Zorblax's plan again. Zorblax's.");
    expect(tokens.filter((t) => t.startsWith('Zorblax'))).to.have.length(3);
    expect(tokensOf("Zorblax's plan: Zorblax's plan again. Zorblax's.")).to.deep.equal(tokens);
  });
});
