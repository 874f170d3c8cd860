import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key pair of the MCP registry's HTTP domain verification: made once by the service (the first
 * row wins, so every web process serves the same public record) and kept, so the record at
 * `/.well-known/mcp-registry-auth` works with no configuration and the operator can log the
 * registry's publisher in with the private key (`humanlike admin mcp-registry`). One row only.
 */
export class CreateMcpRegistryKey1795790000000 implements MigrationInterface {
  name = 'CreateMcpRegistryKey1795790000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE mcp_registry_key (
        id smallint NOT NULL DEFAULT 1,
        algorithm text NOT NULL,
        public_key text NOT NULL,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_mcp_registry_key PRIMARY KEY (id),
        CONSTRAINT ck_mcp_registry_key_single CHECK (id = 1),
        CONSTRAINT ck_mcp_registry_key_algorithm CHECK (algorithm = 'ed25519')
      )`);
  }

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE mcp_registry_key`);
  }
}
