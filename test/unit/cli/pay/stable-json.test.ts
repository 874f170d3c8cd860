import { expect } from 'chai';
import { answerFileContent, PAY_JSON_MEMBERS, payJson, sortKeys } from '../../../../cli/pay/stable-json';

describe('humanlike pay --json and --out content', function () {
  it('sorts keys at every depth and keeps array order', function () {
    const sorted = sortKeys({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } });
    expect(JSON.stringify(sorted)).to.equal('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
  });

  it('prints the members in their fixed order, and equal answers built in any order as equal bytes', function () {
    const one = payJson({ status: 200, body: { result_id: 'r', score: { passed: true, eq_score: 80 } }, replayed: false, paid: { payTo: '0x2', amount: '1', asset: '0x1', network: 'eip155:8453' } });
    const two = payJson({ replayed: false, paid: { network: 'eip155:8453', asset: '0x1', amount: '1', payTo: '0x2' }, body: { score: { eq_score: 80, passed: true }, result_id: 'r' }, status: 200 });
    expect(one).to.equal(two);
    expect(Object.keys(JSON.parse(one))).to.deep.equal([...PAY_JSON_MEMBERS]);
    expect(one).to.equal(
      '{"status":200,"body":{"result_id":"r","score":{"eq_score":80,"passed":true}},"receipt":null,"paid":{"amount":"1","asset":"0x1","network":"eip155:8453","payTo":"0x2"},"replayed":false,"resumed_from":null}\n',
    );
  });

  it('gives a JSON Lines answer as the array of its lines in --json, and byte for byte in --out', function () {
    const jsonl = '{"record_type":"manifest","records":0}\n{"record_type":"end","records":0}\n';
    expect(JSON.parse(payJson({ status: 200, body: jsonl, replayed: false })).body).to.deep.equal([
      { record_type: 'manifest', records: 0 },
      { record_type: 'end', records: 0 },
    ]);
    expect(answerFileContent(jsonl)).to.equal(jsonl);
    expect(answerFileContent({ b: 1, a: 2 })).to.equal('{\n  "a": 2,\n  "b": 1\n}\n');
  });
});
