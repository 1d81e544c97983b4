import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../config/project-root';

/**
 * The integrator pages (docs/api/): an introduction, one walkthrough per API, the internal endpoints, the sandbox, the
 * error body, versioning and deprecation; shown by the reference pages (each audience's reference shows its own:
 * lib/rest/audiences.ts).
 */
export const API_PAGES = [
  'index.md',
  'bank.md',
  'partner.md',
  'app.md',
  'internal.md',
  'sandbox.md',
  'errors.md',
  'versioning.md',
] as const;
export type ApiPage = (typeof API_PAGES)[number];

/** Where the reference serves the signing samples (docs/api/samples/): the pages' links to them point here. */
export const SAMPLES_PATH = '/docs/samples';

export function apiPagesDir(): string {
  return path.join(projectRoot(), 'docs', 'api');
}

/**
 * A document's `info.description`: the pages in order, so that the reference page shows each as a section. A
 * missing page (an image built without docs/) is left out. Links to the signing samples point where the reference
 * serves them; the pages' other links are to sections of the same reference.
 */
export function apiDescription(pages: readonly ApiPage[] = API_PAGES, dir = apiPagesDir()): string {
  return pages
    .map((page) => path.join(dir, page))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8').trim().replaceAll('](samples/README.md)', `](${SAMPLES_PATH}/)`))
    .join('\n\n');
}
