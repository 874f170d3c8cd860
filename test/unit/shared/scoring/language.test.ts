import { expect } from 'chai';
import { scoreText, ScoringInputError } from '../../../../shared/scoring';
import { unsupportedLanguageOf } from '../../../../shared/scoring/language';

const WARM_GERMAN = 'Oh nein, das tut mir wirklich leid. Das muss eine furchtbar schwere Woche für dich gewesen sein. Ich bin für dich da, wenn du reden willst.';
const WARM_SPANISH = 'Lo siento muchísimo, debe ser muy difícil para ti. Estoy aquí contigo si quieres hablar esta noche.';

describe('unsupportedLanguageOf', function () {
  const cases: Array<[string, string | undefined]> = [
    [WARM_GERMAN, 'de'],
    [WARM_SPANISH, 'es'],
    ["Je suis vraiment désolé d'apprendre cela. Je suis là pour toi, appelle-moi ce soir.", 'fr'],
    // English, including slang and chat shorthand a detector can mistake for another language.
    ["Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?", undefined],
    ['u ok? wanna grab food l8r', undefined],
    ["idk tbh ngl that's wild lmao", undefined],
    ['Certainly! I hope this helps!', undefined],
    // Too short to tell: scored.
    ['gracias', undefined],
    ['Das tut mir leid', undefined],
    ['ok', undefined],
  ];
  for (const [text, expected] of cases) {
    it(`gives ${expected ?? 'nothing'} for "${text.slice(0, 40)}"`, function () {
      expect(unsupportedLanguageOf(text)).to.equal(expected);
    });
  }
});

describe('scoreText language refusal', function () {
  it('refuses a confidently German reply with unsupported_language instead of scoring it as English', function () {
    const err = (() => {
      try {
        scoreText({ text: WARM_GERMAN, profile: 'grief-support-peer' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(ScoringInputError);
    expect(err).to.include({ code: 'unsupported_language', field: 'text' });
    expect((err as Error).message).to.match(/German \(de\).*English only/);
  });

  it('scores a short text whose language cannot be told', function () {
    expect(scoreText({ text: 'gracias', profile: 'warm-casual-texter' }).result?.eq_score).to.be.a('number');
  });
});
