import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export { COMPONENT_PATH, COMPONENT_VERSION } from '../../shared/embed/component-path';

/**
 * Reads the browser component (`embed/humanlike-check.js` at the package root, the same file the
 * package exports) once. From source this module is `api/embed/`, from `dist` it is
 * `dist/api/embed/`; the file is not compiled, so both look at the package root.
 * @returns the file's text
 * @throws Error when the file is missing (a broken install)
 */
export function readComponentSource(): string {
  const candidates = [path.resolve(__dirname, '../../embed/humanlike-check.js'), path.resolve(__dirname, '../../../embed/humanlike-check.js')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('embed/humanlike-check.js is missing from the package');
  return readFileSync(found, 'utf8');
}
