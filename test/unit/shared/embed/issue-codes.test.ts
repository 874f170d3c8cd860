import { expect } from 'chai';
import { parseContextualAnswer } from '../../../../shared/embed/contextual-evaluator';
import { CONTEXTUAL_CODES, ISSUE_CODES } from '../../../../shared/embed/issue-codes';
import { structuralIssues } from '../../../../shared/embed/structural-check';
import { SIGNAL_IDS } from '../../../../shared/scoring/signals';

describe('shared/embed issue codes', function () {
  it('names every structural code after a signal the engine emits', function () {
    const structural = [...ISSUE_CODES.values()].filter((c) => c.source === 'structural').map((c) => c.code);
    expect(structural).to.have.length.greaterThan(5);
    for (const code of structural) expect(SIGNAL_IDS, code).to.include(code);
    expect(CONTEXTUAL_CODES).to.include.members(structural);
  });

  it('gives structural issues as offsets into the draft, never its text', function () {
    const draft = '🙂 Great question! It\'s worth noting that we delve into this.';
    const issues = structuralIssues(draft);
    expect(issues.map((i) => i.code)).to.include.members(['assistant-boilerplate', 'signposting', 'excess-vocab']);
    for (const i of issues) {
      expect(Object.keys(i).sort()).to.deep.equal(['code', 'end', 'fix', 'severity', 'start']);
      expect(i.start).to.be.at.least(0);
      expect(i.end).to.be.within(i.start + 1, draft.length);
    }
    expect(draft.slice(issues[0].start, issues[0].end)).to.equal('Great question');
  });

  it('trusts a contextual answer only when every issue has a known code and in-range offsets', function () {
    const draft = 'We will fix it today, guaranteed.';
    expect(parseContextualAnswer('{"issues":[{"code":"overpromise","start":22,"end":32}]}', draft)).to.deep.equal([
      { code: 'overpromise', start: 22, end: 32, severity: 'medium', fix: ISSUE_CODES.get('overpromise')!.fix },
    ]);
    expect(parseContextualAnswer('{"issues":[]}', draft)).to.deep.equal([]);
    for (const bad of ['[]', '{"issues":{}}', '{"issues":[{"code":"overpromise","start":22,"end":99}]}', '{"issues":[{"code":"x","start":0,"end":1}]}', '{"issues":[{"code":"overpromise","start":"0","end":1}]}', '```json {"issues":[]}```']) {
      expect(parseContextualAnswer(bad, draft), bad).to.equal(undefined);
    }
  });
});
