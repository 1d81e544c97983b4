import { existsSync } from 'node:fs';
import path from 'node:path';

/** The folder holding package.json, whether code runs from source (jest) or from dist/. */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}
