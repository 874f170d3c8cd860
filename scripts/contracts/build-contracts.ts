// `npm run contracts:build`: compiles the facilitator's Solidity sources with the pinned solc-js
// (the `solc` package, 0.8.30) into JSON artifacts committed next to them
// (facilitator/contracts/<Name>.json). The facilitator loads those files at run time and never
// compiles at start; test/unit/facilitator/contract-artifacts.test.ts recompiles and fails when a
// committed artifact is not exactly what this script would write, so edit a .sol, then rebuild.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';
import type { ContractArtifact } from '../../facilitator/contracts/artifact';

/** Folder of the sources and their artifacts. */
export const CONTRACTS_DIR = path.resolve(__dirname, '..', '..', 'facilitator', 'contracts');

/** Every contract the build produces: `<contract>.sol` defines `contract <contract>`. */
export const CONTRACTS = ['TestUsdc', 'Multicall3', 'OwnedWallet'] as const;

/**
 * Compiler settings, fixed so a rebuild is byte-for-byte reproducible. `cancun` matches the
 * development chain's hardfork and every chain the token could be deployed on for tests.
 */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'ipfs' },
} as const;

interface SolcMessage {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}

interface SolcOutput {
  errors?: SolcMessage[];
  contracts?: Record<string, Record<string, { abi: ContractArtifact['abi']; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

/** A compiled contract and whatever the compiler warned about. */
export interface CompileResult {
  artifact: ContractArtifact;
  warnings: string[];
}

/**
 * Compiles one contract from `facilitator/contracts/<name>.sol`.
 * @param name - the contract (and file) name
 * @returns the artifact and the compiler's warnings
 * @throws Error listing the compiler's errors
 */
export function compileContract(name: string): CompileResult {
  const sourceName = `${name}.sol`;
  const source = readFileSync(path.join(CONTRACTS_DIR, sourceName));
  const input = {
    language: 'Solidity',
    sources: { [sourceName]: { content: source.toString('utf8') } },
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: { [sourceName]: { [name]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)) as string) as SolcOutput;
  const messages = output.errors ?? [];
  const errors = messages.filter((m) => m.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed on ${sourceName}:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = output.contracts?.[sourceName]?.[name];
  if (!compiled) throw new Error(`solc produced no contract ${name} in ${sourceName}`);
  return {
    artifact: {
      contractName: name,
      sourceName,
      sourceSha256: createHash('sha256').update(source).digest('hex'),
      compiler: { version: solc.version() as string, settings: COMPILER_SETTINGS },
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
    },
    warnings: messages.filter((m) => m.severity === 'warning').map((m) => m.formattedMessage),
  };
}

/**
 * The exact text an artifact file holds (two-space JSON and a final newline).
 * @param artifact - a compiled contract
 * @returns the file content
 */
export function renderArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

/**
 * Path of a contract's committed artifact.
 * @param name - the contract name
 * @returns `facilitator/contracts/<name>.json`
 */
export function artifactPath(name: string): string {
  return path.join(CONTRACTS_DIR, `${name}.json`);
}

function main(): void {
  for (const name of CONTRACTS) {
    const { artifact, warnings } = compileContract(name);
    for (const w of warnings) process.stderr.write(`${w}\n`);
    writeFileSync(artifactPath(name), renderArtifact(artifact));
    const runtimeBytes = (artifact.deployedBytecode.length - 2) / 2;
    console.log(`${name}: ${path.relative(process.cwd(), artifactPath(name))} (${runtimeBytes} runtime bytes, solc ${artifact.compiler.version})`);
  }
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  }
}
