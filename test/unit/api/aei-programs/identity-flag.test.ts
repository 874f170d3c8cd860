import { expect } from 'chai';
import { blindReply, namesSponsor } from '../../../../api/aei-programs/pilot/identity-flag';

const ACME = { name: 'Acme', domains: ['acme-help.example'] };

describe('api/aei-programs/pilot/identity-flag', function () {
  it('hides every mention of the sponsor name or domain, in any letter case, and flags the reply', function () {
    expect(blindReply("Welcome to ACME's help desk, see acme-help.example or Acme.", ACME)).to.deep.equal({
      text: "Welcome to [hidden]'s help desk, see [hidden] or [hidden].",
      flagged: true,
    });
  });

  it('leaves words that merely contain the name alone', function () {
    expect(blindReply('Acmetrics and subacme are unrelated.', ACME)).to.deep.equal({ text: 'Acmetrics and subacme are unrelated.', flagged: false });
    expect(namesSponsor('A new seat on the next flight.', ACME)).to.equal(false);
    expect(namesSponsor('Ask acme about it', ACME)).to.equal(true);
  });

  it('treats a name with regular-expression characters literally', function () {
    expect(blindReply('Call C++ Air (c++ air) now', { name: 'C++ Air', domains: [] })).to.deep.equal({ text: 'Call [hidden] ([hidden]) now', flagged: true });
    expect(namesSponsor('Cxx Air', { name: 'C++ Air', domains: [] })).to.equal(false);
  });
});
