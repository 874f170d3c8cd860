import path from 'node:path';
import { Command, Option } from 'commander';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../shared/config';
import { createDataSource } from '../../shared/db/create-data-source';
import { ConfigError } from '../../shared/errors';
import { ensureMcpRegistryKey, mcpRegistryRecord } from '../../shared/operators/mcp-registry-key';
import { listCredentials, mintCredential, OPERATOR_ROLES, revokeCredential, type CredentialInfo, type OperatorRole } from '../../shared/operators/credentials';
import { DATABASE_URL_FILE, findRootDir, readStackDatabaseUrl, stackDataDir } from '../../shared/stack-files';
import { CliUsageError, type CliIo } from '../io';

const TTL_UNITS: Record<string, number> = { m: 60, h: 3_600, d: 86_400 };
const MAX_TTL_SECONDS = 366 * 86_400;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses a lifetime such as `30d`, `12h` or `15m`.
 * @param text - the `--ttl` value
 * @returns seconds
 * @throws CliUsageError when it is not a whole number of minutes, hours or days up to 366 days
 */
export function parseTtl(text: string): number {
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * TTL_UNITS[match[2]] : NaN;
  if (!(seconds > 0 && seconds <= MAX_TTL_SECONDS)) {
    throw new CliUsageError(`--ttl must be a lifetime such as 30d, 12h or 15m, at most 366d (got "${text}")`);
  }
  return seconds;
}

/**
 * The environment the admin commands connect with: DATABASE_URL when it is set; otherwise the
 * embedded database of a running `npm start`, which records its URL in its data folder (DATA_DIR,
 * else `.data` in the repository).
 * @param env - the CLI's environment
 * @param rootDir - the repository folder
 * @returns the environment to load the configuration from
 * @throws CliUsageError when neither is there
 */
export function adminDatabaseEnv(env: NodeJS.ProcessEnv, rootDir: string = findRootDir(__dirname)): NodeJS.ProcessEnv {
  if (env.DATABASE_URL?.trim()) return env;
  const dataDir = stackDataDir(env, rootDir);
  const url = readStackDatabaseUrl(dataDir);
  if (!url) {
    throw new CliUsageError(
      `DATABASE_URL is not set, and no running npm start recorded its database in ${path.join(dataDir, DATABASE_URL_FILE)}: ` +
        'start the service with npm start (from this repository, or with the same DATA_DIR), or set DATABASE_URL',
    );
  }
  // The embedded database (PGlite) has one backend session for every connection: no named statements.
  return { ...env, DATABASE_URL: url, DATABASE_PREPARED_STATEMENTS: 'false' };
}

async function withDatabase<T>(env: NodeJS.ProcessEnv, work: (ds: DataSource) => Promise<T>): Promise<T> {
  let ds: DataSource;
  try {
    ds = createDataSource(loadConfig(adminDatabaseEnv(env)).db, 'cli-admin');
  } catch (err) {
    if (err instanceof ConfigError) throw new CliUsageError(err.problems.join('; '));
    throw err;
  }
  await ds.initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}

const view = (c: CredentialInfo) => ({
  id: c.id,
  role: c.role,
  label: c.label,
  created_at: c.createdAt.toISOString(),
  expires_at: c.expiresAt.toISOString(),
  revoked_at: c.revokedAt ? c.revokedAt.toISOString() : null,
});

function status(c: CredentialInfo, now = Date.now()): string {
  if (c.revokedAt) return 'revoked';
  return c.expiresAt.getTime() <= now ? 'expired' : 'active';
}

/**
 * Defines `humanlike admin token create|revoke|list`: mints, revokes and lists operator and admin
 * credentials in the database of `DATABASE_URL`. A minted token is printed once and never stored.
 * @param io - streams
 * @param env - environment (DATABASE_URL)
 * @param report - receives the exit code
 * @returns the command
 */
export function createAdminCommand(io: CliIo, env: NodeJS.ProcessEnv, report: (code: number) => void): Command {
  const token = new Command('token').description("mint, revoke and list operator and admin credentials (DATABASE_URL, else a running npm start's database)");
  token
    .command('create')
    .description('mint a credential; its token is printed once and cannot be shown again')
    .addOption(new Option('--role <role>', 'what it may do').choices(OPERATOR_ROLES).makeOptionMandatory())
    .requiredOption('--ttl <lifetime>', 'how long it is valid: 15m, 12h, 30d (at most 366d)')
    .option('--label <text>', 'who or what it is for')
    .option('--json', 'machine-readable output', false)
    .action(async (flags: { role: OperatorRole; ttl: string; label?: string; json: boolean }) => {
      const ttl = parseTtl(flags.ttl);
      const minted = await withDatabase(env, (ds) => mintCredential(ds, flags.role, ttl, flags.label));
      if (flags.json) io.stdout.write(JSON.stringify({ ...view(minted.credential), token: minted.token }) + '\n');
      else {
        io.stdout.write(
          `id       ${minted.credential.id}\nrole     ${minted.credential.role}\nexpires  ${minted.credential.expiresAt.toISOString()}\n` +
            `token    ${minted.token}\n\nThe token is shown once: store it now. Send it as "Authorization: Bearer <token>".\n`,
        );
      }
      report(0);
    });
  token
    .command('revoke')
    .description('revoke a credential at once')
    .argument('<id>', "the credential's id (from create or list)")
    .action(async (id: string) => {
      if (!UUID.test(id)) throw new CliUsageError(`"${id}" is not a credential id (a UUID; see "humanlike admin token list")`);
      const revoked = await withDatabase(env, (ds) => revokeCredential(ds, id));
      if (!revoked) {
        io.stderr.write(`humanlike: no credential ${id}\n`);
        report(1);
        return;
      }
      io.stdout.write(`revoked ${revoked.id} (${revoked.role})\n`);
      report(0);
    });
  token
    .command('list')
    .description('list credentials (never their tokens)')
    .option('--json', 'machine-readable output', false)
    .action(async (flags: { json: boolean }) => {
      const all = await withDatabase(env, listCredentials);
      if (flags.json) io.stdout.write(JSON.stringify(all.map((c) => ({ ...view(c), status: status(c) }))) + '\n');
      else {
        const lines = all.map((c) => `${c.id}  ${c.role.padEnd(8)}  ${status(c).padEnd(7)}  expires ${c.expiresAt.toISOString()}  ${c.label ?? ''}`.trimEnd());
        io.stdout.write(lines.length > 0 ? lines.join('\n') + '\n' : 'no credentials\n');
      }
      report(0);
    });
  const registry = new Command('mcp-registry')
    .description("what the MCP registry's publisher needs to verify this service's domain over HTTP (DATABASE_URL)")
    .option('--domain <host>', 'the domain the service answers on (default: the host of PUBLIC_BASE_URL)')
    .option('--json', 'machine-readable output', false)
    .action(async (flags: { domain?: string; json: boolean }) => {
      const domain = flags.domain ?? registryDomain(env.PUBLIC_BASE_URL);
      const key = await withDatabase(env, ensureMcpRegistryKey);
      const record = mcpRegistryRecord(key);
      const override = env.MCP_REGISTRY_AUTH?.trim();
      const login = `mcp-publisher login http --domain ${domain ?? '<your domain>'} --private-key ${key.privateKeyHex}`;
      if (flags.json) {
        io.stdout.write(
          JSON.stringify({ domain: domain ?? null, record, algorithm: key.algorithm, private_key_hex: key.privateKeyHex, login, served_record: override || record, overridden: Boolean(override) && override !== record }) + '\n',
        );
      } else {
        const where = domain ? `https://${domain}/.well-known/mcp-registry-auth` : '/.well-known/mcp-registry-auth (also under /api)';
        io.stdout.write(
          `The service serves this record at ${where}:\n  ${record}\n\n` +
            `Log the registry's publisher in with the matching private key (a secret: it publishes under ${domain ? reversedDomain(domain) : 'your reversed domain'}/*):\n  ${login}\n` +
            (override && override !== record ? `\nMCP_REGISTRY_AUTH is set, and web serves it instead of this record:\n  ${override}\nUnset it (or set it to the record above) for this key to verify.\n` : ''),
        );
      }
      report(0);
    });
  return new Command('admin').description("operate the service: credentials, the MCP registry key (DATABASE_URL, else a running npm start's database)").addCommand(token).addCommand(registry);
}

function registryDomain(publicBaseUrl: string | undefined): string | undefined {
  if (!publicBaseUrl?.trim()) return undefined;
  try {
    return new URL(publicBaseUrl).hostname;
  } catch {
    throw new CliUsageError(`PUBLIC_BASE_URL is not a URL ("${publicBaseUrl}"); pass --domain`);
  }
}

/** The registry's namespace form of a domain: humanlike.example.com -> com.example.humanlike. */
function reversedDomain(domain: string): string {
  return domain.split('.').reverse().join('.');
}
