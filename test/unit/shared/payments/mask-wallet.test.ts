import { expect } from 'chai';
import { maskWallet } from '../../../../shared/payments/mask';

describe('maskWallet', function () {
  it('shows an EVM wallet checksummed whatever case it is stored in, and a Solana wallet as it is', function () {
    const checksummed = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    expect(maskWallet(checksummed.toLowerCase())).to.equal('0x3C44…93BC');
    expect(maskWallet(checksummed.toUpperCase().replace('0X', '0x'))).to.equal('0x3C44…93BC');
    expect(maskWallet('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).to.equal('7xKXtg…gAsU');
  });
});
