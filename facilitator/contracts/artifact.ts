import type { Abi, Hex } from 'viem';
import multicall3Json from './Multicall3.json';
import ownedWalletJson from './OwnedWallet.json';
import testUsdcJson from './TestUsdc.json';

/**
 * A compiled contract as `npm run contracts:build` writes it next to its source. The service
 * reads these files and never compiles at start; a unit test recompiles the sources and checks the
 * committed files are exactly what the compiler produces.
 */
export interface ContractArtifact {
  contractName: string;
  /** The source file name, relative to `facilitator/contracts/`. */
  sourceName: string;
  /** sha256 (hex) of the source file's bytes. */
  sourceSha256: string;
  compiler: {
    /** Full solc-js version string, e.g. `0.8.30+commit.73712a01.Emscripten.clang`. */
    version: string;
    /** The standard-JSON settings the artifact was built with. */
    settings: Record<string, unknown>;
  };
  abi: Abi;
  /** Creation code (0x-prefixed). */
  bytecode: Hex;
  /** Runtime code (0x-prefixed), e.g. for `hardhat_setCode`. */
  deployedBytecode: Hex;
}

/** The EIP-3009 USDC-style token of the development chain. */
export const testUsdcArtifact = testUsdcJson as unknown as ContractArtifact;

/** The minimal Multicall3 placed at the canonical address on the development chain. */
export const multicall3Artifact = multicall3Json as unknown as ContractArtifact;

/** A one-owner ERC-1271 contract account, for paying from a smart wallet on the development chain. */
export const ownedWalletArtifact = ownedWalletJson as unknown as ContractArtifact;
