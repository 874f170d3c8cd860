import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { multicall3Artifact, ownedWalletArtifact, testUsdcArtifact } from '../../../facilitator/contracts/artifact';
import { artifactPath, compileContract, CONTRACTS, CONTRACTS_DIR, renderArtifact } from '../../../scripts/contracts/build-contracts';

describe('facilitator/contracts artifacts', function () {
  // solc-js loads a 9 MB compiler and compiles without a cache: about a second per contract.
  this.timeout(30_000);

  for (const name of CONTRACTS) {
    it(`${name}.json is exactly what a fresh compile of ${name}.sol produces (run npm run contracts:build after editing the source)`, function () {
      const { artifact, warnings } = compileContract(name);
      expect(warnings, 'compiler warnings').to.deep.equal([]);
      expect(readFileSync(artifactPath(name), 'utf8'), `${name}.json is stale: run npm run contracts:build`).to.equal(renderArtifact(artifact));
    });
  }

  it('records the pinned compiler and the hash of each source', function () {
    for (const artifact of [testUsdcArtifact, multicall3Artifact, ownedWalletArtifact]) {
      expect(artifact.compiler.version).to.match(/^0\.8\.30\+commit\./);
      const source = readFileSync(path.join(CONTRACTS_DIR, artifact.sourceName));
      expect(artifact.sourceSha256).to.equal(createHash('sha256').update(source).digest('hex'));
      expect(artifact.bytecode).to.match(/^0x[0-9a-f]+$/);
      expect(artifact.deployedBytecode).to.match(/^0x[0-9a-f]+$/);
    }
  });

  it('exposes the EIP-3009 interface the x402 facilitator calls', function () {
    const signatures = testUsdcArtifact.abi
      .filter((item) => item.type === 'function')
      .map((item) => `${item.name}(${item.inputs.map((i) => i.type).join(',')})`);
    expect(signatures).to.include.members([
      'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
      'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)',
      'receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
      'cancelAuthorization(address,bytes32,uint8,bytes32,bytes32)',
      'authorizationState(address,bytes32)',
      'balanceOf(address)',
      'name()',
      'version()',
      'DOMAIN_SEPARATOR()',
    ]);
    const events = testUsdcArtifact.abi.filter((item) => item.type === 'event').map((item) => item.name);
    expect(events).to.have.members(['Transfer', 'Approval', 'AuthorizationUsed', 'AuthorizationCanceled']);
  });
});
