import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/project-root';

/** The integrator pages (docs/api/): an introduction, one walkthrough per API, the sandbox; shown by the reference page. */
export const API_PAGES = ['index.md', 'bank.md', 'partner.md', 'app.md', 'sandbox.md'] as const;

export function apiPagesDir(): string {
  return path.join(projectRoot(), 'docs', 'api');
}

/**
 * The document's `info.description`: the pages in order, so that the reference page shows each as a section. A
 * missing page (an image built without docs/) is left out.
 */
export function apiDescription(dir = apiPagesDir()): string {
  return API_PAGES.map((page) => path.join(dir, page))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8').trim())
    .join('\n\n');
}
