import { loadConfig } from '../config';
import { createDataSource } from './create-data-source';

/**
 * The DataSource of the TypeORM CLI (`typeorm migration:run -d dist/shared/db/data-source.js`).
 * Only the CLI imports this module: it is the one place outside the process entries that reads
 * `process.env`. The API and the workers call `createDataSource` with their own config.
 */
export const dataSource = createDataSource(loadConfig(process.env).db, 'migrate');
