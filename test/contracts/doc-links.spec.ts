import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '@lib/config/project-root';

/**
 * Links that must not rot: every link from code or docs to a decision record names a record that exists
 * (docs/decisions/README.md, "Former numbers", maps retired numbers), every relative markdown link in docs/ and the
 * README files reaches a file (and, for a markdown file, a heading), and a citation of docs/benchmarks.md names a
 * section of that page, never a dated round.
 */
const ROOT = projectRoot();
const DECISIONS = 'docs/decisions';
const SEARCHED = ['README.md', '.env.example', 'docker-compose.yml', 'Dockerfile', 'jest.config.js', 'eslint.config.mjs'];
const SEARCHED_DIRS = ['docs', 'gateway', 'subgraphs', 'rest-adapters', 'lib', 'scripts', 'bench', 'test', 'deploy'];
const TEXT = /\.(ts|js|mjs|md|graphql|ya?ml|conf|json|sql)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', '.data', 'screenshots']);

function filesUnder(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [dir];
  return readdirSync(full).flatMap((entry) => (SKIPPED_DIRS.has(entry) ? [] : filesUnder(path.posix.join(dir, entry))));
}

const files = [...SEARCHED.filter((file) => existsSync(path.join(ROOT, file))), ...SEARCHED_DIRS.flatMap(filesUnder)].filter(
  (file) => TEXT.test(file) || SEARCHED.includes(file),
);
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const records = new Set(readdirSync(path.join(ROOT, DECISIONS)).filter((file) => /^\d{4}-.+\.md$/.test(file)));
const recordNumbers = new Set([...records].map((file) => file.slice(0, 4)));

/** GitHub's anchor of each heading of a markdown file (lower case, punctuation dropped, spaces as dashes, repeats numbered). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of read(file).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

function headingsOf(file: string): string[] {
  return read(file)
    .split('\n')
    .flatMap((line) => /^#{1,6} (.+)$/.exec(line)?.[1] ?? [])
    .map((heading) => heading.toLowerCase());
}

describe('links in code and docs', () => {
  it('name decision records that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = read(file);
      const inDecisions = file.startsWith(`${DECISIONS}/`);
      const linked = /(?:decisions\/|(?<=\]\())(\d{4}-[a-z0-9-]+\.md)/g;
      for (const match of text.matchAll(linked)) {
        if (match[0].startsWith('decisions/') || inDecisions) {
          if (!records.has(match[1])) broken.push(`${file}: ${match[1]}`);
        }
      }
      // A record cited by number alone: "decision 0061", "record 0211", "decisions/0028".
      for (const match of text.matchAll(/\b(?:[Dd]ecisions?|[Rr]ecords?)(?: |\/)(\d{4})\b(?!-)/g)) {
        if (!recordNumbers.has(match[1])) broken.push(`${file}: ${match[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reach files and headings from docs/ and the README files', () => {
    const markdown = files.filter((file) => file.endsWith('.md') && (file.startsWith('docs/') || path.basename(file) === 'README.md'));
    expect(markdown.length).toBeGreaterThan(50);
    const broken: string[] = [];
    for (const file of markdown) {
      let fenced = false;
      for (const line of read(file).split('\n')) {
        if (line.trimStart().startsWith('```')) fenced = !fenced;
        if (fenced) continue;
        for (const match of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = match[1];
          if (/^[a-z]+:/i.test(target)) continue;
          // The integrator pages are the reference's text: a link from the root is a page the REST server serves
          // (/docs/bank/, /docs/samples/; test/contracts/openapi.spec.ts requests each).
          if (file.startsWith('docs/api/') && target.startsWith('/')) continue;
          const [pathPart, anchor] = target.split('#');
          const resolved = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart)) : file;
          if (!existsSync(path.join(ROOT, resolved))) broken.push(`${file}: ${target}`);
          else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
            broken.push(`${file}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('cite sections of docs/benchmarks.md that exist, never a dated round', () => {
    const headings = headingsOf('docs/benchmarks.md');
    const broken: string[] = [];
    for (const file of files.filter((f) => f !== 'docs/benchmarks.md')) {
      const text = read(file);
      for (const match of text.matchAll(/benchmarks\.md[),]?(?: \w+)? "([^"]+)"/g)) {
        const section = match[1].toLowerCase();
        if (!headings.some((heading) => heading.startsWith(section))) broken.push(`${file}: ${match[0]}`);
      }
      for (const match of text.matchAll(/benchmarks\.md[^\n]{0,60}?\b(?:[a-z-]+th|first|second|third|twenty-first) round\b/gi)) {
        broken.push(`${file}: ${match[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
