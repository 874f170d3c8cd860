import { expect } from 'chai';
import { FEELINGS, FEELING_IDS } from '../../../../shared/roleplay/feelings';
import { readFeeling } from '../../../../shared/roleplay/read-feeling';

describe('readFeeling', function () {
  it('reads the feeling a reply names, through word forms', function () {
    expect(readFeeling('That sounds really worrying, no wonder you feel on edge.').feeling).to.equal('anxious');
    expect(readFeeling('I can hear how frustrating this has been.').feeling).to.equal('frustrated');
    expect(readFeeling('It sounds like you are feeling lonely since the move.').feeling).to.equal('lonely');
    expect(readFeeling('You must be completely overwhelmed right now.').feeling).to.equal('overwhelmed');
  });

  it('gives the evidence with exact offsets', function () {
    const text = 'Honestly, that sounds embarrassing.';
    const { hits } = readFeeling(text);
    expect(hits).to.have.length(1);
    expect(text.slice(hits[0].start, hits[0].end)).to.equal('embarrassing');
    expect(hits[0]).to.include({ feeling: 'embarrassed', negated: false });
  });

  it('cancels a negated cue, within its clause only', function () {
    const reading = readFeeling("You don't seem angry to me. It sounds more like you're sad.");
    expect(reading.feeling).to.equal('sad');
    expect(reading.hits.find((h) => h.feeling === 'angry')?.negated).to.equal(true);
    expect(readFeeling('I am not sure, but you sound anxious.').feeling).to.equal('anxious');
    expect(readFeeling('You are not angry at all.').feeling).to.equal(null);
    expect(readFeeling("No wonder you're anxious.").feeling).to.equal('anxious');
  });

  it('counts cues that carry their own negation for the feeling they reassure about', function () {
    expect(readFeeling("You're not alone in this.").feeling).to.equal('lonely');
    expect(readFeeling("Listen, it's not your fault.").feeling).to.equal('guilty');
  });

  it('takes the most named feeling, a tie going to the one named first', function () {
    expect(readFeeling('A bit frustrated, sure, but mostly sad and heartbroken.').feeling).to.equal('sad');
    expect(readFeeling('Confused and scared, both make sense.').feeling).to.equal('confused');
  });

  it('reads nothing from stock phrases or a reply that names no feeling', function () {
    expect(readFeeling('I hope this helps! Calm down and sit down for a minute.').feeling).to.equal(null);
    expect(readFeeling('Restart the router, then call me back.').feeling).to.equal(null);
  });

  it('reads every published feeling from its own first cue', function () {
    expect(FEELING_IDS).to.have.length(FEELINGS.length);
    for (const f of FEELINGS) expect(readFeeling(`It sounds like ${f.cues[0]}.`).feeling, f.id).to.equal(f.id);
  });
});
