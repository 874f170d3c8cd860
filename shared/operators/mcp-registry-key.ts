import { generateKeyPairSync } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** The service's key pair for the MCP registry's HTTP domain verification. */
export interface McpRegistryKey {
  algorithm: 'ed25519';
  /** The raw 32-byte public key, base64 (what the record's `p=` carries). */
  publicKey: string;
  /** The raw 32-byte private key (the seed), hex: what `mcp-publisher login http --private-key` takes. */
  privateKeyHex: string;
  createdAt: Date;
}

// DER prefixes of an Ed25519 key: SPKI is 12 bytes then the raw public key, PKCS#8 16 bytes then the seed.
const SPKI_PREFIX_BYTES = 12;
const PKCS8_PREFIX_BYTES = 16;

/**
 * A fresh Ed25519 key pair in the registry's raw encodings.
 * @returns the public key (base64) and the private key (hex)
 */
export function newMcpRegistryKeyPair(): { publicKey: string; privateKeyHex: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  return { publicKey: spki.subarray(SPKI_PREFIX_BYTES).toString('base64'), privateKeyHex: pkcs8.subarray(PKCS8_PREFIX_BYTES).toString('hex') };
}

/**
 * The record the registry reads at `https://<domain>/.well-known/mcp-registry-auth`.
 * @param key - the key pair (or its public half)
 * @returns `v=MCPv1; k=ed25519; p=<base64 public key>`
 */
export function mcpRegistryRecord(key: Pick<McpRegistryKey, 'algorithm' | 'publicKey'>): string {
  return `v=MCPv1; k=${key.algorithm}; p=${key.publicKey}`;
}

/**
 * The service's registry key, made on first need. Concurrent first calls (several web processes)
 * insert at most one row; every caller reads the row that won.
 * @param ds - DataSource
 * @returns the key pair
 */
export async function ensureMcpRegistryKey(ds: DataSource): Promise<McpRegistryKey> {
  const fresh = newMcpRegistryKeyPair();
  await ds.query(`INSERT INTO mcp_registry_key (id, algorithm, public_key, private_key) VALUES (1, 'ed25519', $1, $2) ON CONFLICT (id) DO NOTHING`, [fresh.publicKey, fresh.privateKeyHex]);
  const rows = (await ds.query(`SELECT algorithm, public_key, private_key, created_at FROM mcp_registry_key WHERE id = 1`)) as Array<{
    algorithm: 'ed25519';
    public_key: string;
    private_key: string;
    created_at: Date;
  }>;
  const row = rows[0];
  return { algorithm: row.algorithm, publicKey: row.public_key, privateKeyHex: row.private_key, createdAt: row.created_at };
}
