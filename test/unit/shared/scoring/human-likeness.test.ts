import { expect } from 'chai';
import { analyze } from '../../../../shared/scoring/analyze';
import { FUNCTION_WORDS, functionWordProfile, humanLikenessFeatures, measureTextHumanLikeness, rawHumanLikenessFeatures } from '../../../../shared/scoring/human-likeness';
import { detectSignals } from '../../../../shared/scoring/signals';
import weights from '../../../../shared/scoring/weights/human-likeness.json';

function humanLikeness(text: string): number {
  const a = analyze(text);
  return measureTextHumanLikeness(a, detectSignals(a)).value;
}

const HUMAN_REPLIES = [
  "Honestly I think you're overthinking it a bit. The landlord can't keep your deposit because the paint is faded - that's normal wear and tear. Take photos before you hand the keys back, and if he pushes back ask him in writing what damage he means. Most of the time they back down. Good luck!",
  "lol no way, did he actually say that?? I'd have walked out. Anyway I'm free Thursday if you still want to grab food, text me.",
  'My sister had the same problem with her car last year. She took it to the garage on Main Street and they fixed it in two days for about 300 dollars. I can send you their number if you want.',
];

const MACHINE_REPLIES = [
  "Certainly! Navigating a dispute with your landlord can be challenging, but there are several steps you can take. First, it's important to document the condition of the property, showcasing any pre-existing wear. Additionally, review your lease agreement carefully to understand your rights and obligations. Ultimately, small claims court is a viable option. I hope this helps!",
  'Navigating the complexities of modern relationships requires patience, empathy, and open communication. By fostering a sense of trust and mutual respect, couples can build a resilient foundation that withstands the challenges of everyday life, underscoring the pivotal role of commitment.',
];

describe('measureTextHumanLikeness', () => {
  it('keeps short, plain and non-native replies on the human side', () => {
    for (const text of [
      'ok sounds good',
      'yes I can come tomorrow but I will be late',
      'I am agree with you, the meeting on monday is good for me. I will bring the papers.',
      'Sorry, I cannot come today because my son is sick. We can meet on Thursday?',
      'thanks',
    ]) {
      expect(humanLikeness(text), text).to.be.at.least(0.5);
    }
  });

  it('keeps a plain essay without casual markers on the human side', () => {
    const essay =
      'In my opinion, technology is very important for students today. Many students use computer for study every day and they can find information very fast. ' +
      'For example, when I was in high school, I use internet to prepare my homework and it help me a lot. But some people think technology make students lazy, because they do not need to think by themselves. ' +
      'I think this is not true. If students use technology in good way, they can learn more things than before. In conclusion, I believe technology is helpful for education.';
    expect(humanLikeness(essay)).to.be.at.least(0.5);
  });

  it('scores assistant-styled text below human chat', () => {
    const human = Math.min(...HUMAN_REPLIES.map(humanLikeness));
    const machine = Math.max(...MACHINE_REPLIES.map(humanLikeness));
    expect(human).to.be.at.least(0.5);
    expect(machine).to.be.below(0.5);
    expect(machine).to.be.below(human);
  });

  it('never rises when "As an AI language model, " is added', () => {
    for (const text of [...HUMAN_REPLIES, ...MACHINE_REPLIES, 'ok sounds good', 'The bus is late again.']) {
      const base = humanLikeness(text);
      const tainted = humanLikeness(`As an AI language model, ${text}`);
      expect(tainted, text).to.be.at.most(base);
      expect(tainted).to.be.at.most(0.02);
    }
  });

  it('stays in 0..1, explains itself with exact spans, and sorts contributions by effect', () => {
    for (const text of [...HUMAN_REPLIES, ...MACHINE_REPLIES]) {
      const a = analyze(text);
      const m = measureTextHumanLikeness(a, detectSignals(a));
      expect(m.value).to.be.within(0, 1);
      for (let i = 1; i < m.contributions.length; i++) {
        expect(Math.abs(m.contributions[i - 1].delta)).to.be.at.least(Math.abs(m.contributions[i].delta));
      }
      for (const c of m.contributions) {
        expect(Number.isFinite(c.delta), c.feature).to.equal(true);
        for (const s of c.spans) expect(text.slice(s.start, s.end)).to.equal(s.text);
      }
    }
  });

  it('is deterministic', () => {
    const text = MACHINE_REPLIES[0];
    const first = JSON.stringify(measureTextHumanLikeness(analyze(text), detectSignals(analyze(text))));
    const second = JSON.stringify(measureTextHumanLikeness(analyze(text), detectSignals(analyze(text))));
    expect(first).to.equal(second);
  });

  it('handles empty text', () => {
    for (const text of ['', '   ']) {
      const a = analyze(text);
      const m = measureTextHumanLikeness(a, detectSignals(a));
      expect(m.value).to.be.within(0.5, 1);
    }
  });
});

describe('humanLikenessFeatures', () => {
  it('gives a finite value for every feature of the stored model', () => {
    const a = analyze(MACHINE_REPLIES[0]);
    const x = humanLikenessFeatures(a, detectSignals(a));
    for (const f of weights.features) expect(Number.isFinite(x[f]), f).to.equal(true);
  });

  it('pulls a very short reply to the human-typical prior instead of an extreme rate', () => {
    const a = analyze('hi');
    const x = humanLikenessFeatures(a, detectSignals(a));
    const priors = weights.priors as Record<string, number>;
    for (const f of weights.features) expect(x[f], f).to.be.closeTo(priors[f], 0.2 * Math.max(1, Math.abs(priors[f])));
  });

  it('counts function words and measures the profile per 100 words with the given weights', () => {
    const a = analyze('The cat sat on the mat and the dog slept.');
    const r = rawHumanLikenessFeatures(a, detectSignals(a), false);
    expect(r.functionWordCounts[FUNCTION_WORDS.indexOf('the')]).to.equal(3);
    expect(r.functionWordCounts[FUNCTION_WORDS.indexOf('and')]).to.equal(1);
    const weightsOfThe = FUNCTION_WORDS.map((w) => (w === 'the' ? 0.5 : 0));
    expect(functionWordProfile(r.functionWordCounts, r.words, weightsOfThe)).to.be.closeTo((0.5 * 3 * 100) / r.words, 1e-9);
  });

  it('measures the punctuation habits: parentheses and semicolons raise their rates, commas theirs', () => {
    const plain = analyze('We went home early. It rained all day. Nobody minded much.');
    const marked = analyze('We went home early (it rained); nobody minded, really, at all.');
    const p = rawHumanLikenessFeatures(plain, detectSignals(plain), false).raw;
    const m = rawHumanLikenessFeatures(marked, detectSignals(marked), false).raw;
    expect(p.parentheses).to.equal(0);
    expect(m.parentheses).to.be.greaterThan(0);
    expect(m.semicolons).to.be.greaterThan(p.semicolons);
    expect(m.commas).to.be.greaterThan(p.commas);
  });

  it('measures burstiness as the longest sentence over the mean, with the longest sentence as evidence', () => {
    const even = analyze('We left at six. The road was clear. We got there by nine. Nobody was home yet.');
    const bursty = analyze(
      'We left at six. The road was clear. We got there by nine, parked behind the barn, walked all the way round the house twice and knocked on every door we could find. Nobody was home.',
    );
    const e = rawHumanLikenessFeatures(even, detectSignals(even));
    const b = rawHumanLikenessFeatures(bursty, detectSignals(bursty));
    // Even: 4,4,5,4 words -> 5 / 4.25. Bursty: 4,4,25,3 words -> 25 / 9.
    expect(e.raw.longestSentence).to.be.closeTo(5 / 4.25, 1e-9);
    expect(b.raw.longestSentence).to.be.closeTo(25 / 9, 1e-9);
    expect(b.confidence.longestSentence).to.be.closeTo(4 / 5, 1e-9);
    expect(b.spans.longestSentence.map((s) => s.text)).to.deep.equal([
      'We got there by nine, parked behind the barn, walked all the way round the house twice and knocked on every door we could find.',
    ]);
    const one = analyze('Just one sentence here.');
    expect(rawHumanLikenessFeatures(one, detectSignals(one), false).raw.longestSentence).to.equal(1);
  });

  it('counts words the English lexicon does not list (typos, coinages), not listed words, numbers or contractions', () => {
    const typed = analyze("I definately recieve teh package tomorow, don't worry about the 3 boxes.");
    const r = rawHumanLikenessFeatures(typed, detectSignals(typed));
    expect(r.spans.unlistedWords.map((s) => s.text)).to.deep.equal(['definately', 'recieve', 'teh', 'tomorow']);
    // 4 of 13 words is over the cap of 15 per 100.
    expect(r.raw.unlistedWords).to.be.closeTo(Math.log1p(Math.min(15, (4 * 100) / r.words)), 1e-9);
    expect(r.raw.unlistedWords).to.equal(Math.log1p(15));
    const clean = analyze('I will definitely receive the package tomorrow, so do not worry about the boxes.');
    expect(rawHumanLikenessFeatures(clean, detectSignals(clean), false).raw.unlistedWords).to.equal(0);
  });
});
