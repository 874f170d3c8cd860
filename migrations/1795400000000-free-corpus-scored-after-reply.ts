import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The free corpus row is written with the reservation of the free round (one statement, before
 * scoring), and its score columns are filled in after the reply was sent. Until then they are
 * NULL; `scored_at` says when they were filled.
 */
export class FreeCorpusScoredAfterReply1795400000000 implements MigrationInterface {
  name = 'FreeCorpusScoredAfterReply1795400000000';

  /** @param queryRunner - runs the SQL in the migration's transaction */
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE free_corpus_entries ALTER COLUMN human_likeness DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE free_corpus_entries ALTER COLUMN scorer_version DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE free_corpus_entries ADD COLUMN scored_at timestamptz NULL`);
    await queryRunner.query(`UPDATE free_corpus_entries SET scored_at = created_at`);
  }

  /**
   * Rows whose scores were never filled in cannot satisfy the old NOT NULL columns and are dropped.
   * @param queryRunner - runs the SQL in the migration's transaction
   */
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM free_corpus_entries WHERE human_likeness IS NULL OR scorer_version IS NULL`);
    await queryRunner.query(`ALTER TABLE free_corpus_entries DROP COLUMN scored_at`);
    await queryRunner.query(`ALTER TABLE free_corpus_entries ALTER COLUMN scorer_version SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE free_corpus_entries ALTER COLUMN human_likeness SET NOT NULL`);
  }
}
