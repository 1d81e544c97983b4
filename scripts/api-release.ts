import 'reflect-metadata';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '@lib/config/project-root';
import { openApiDocument } from './openapi';
import {
  CHANGELOG,
  GRAPHQL_SNAPSHOT,
  RELEASES_DIR,
  REST_SNAPSHOT,
  compareVersions,
  compareWithRelease,
  currentApiSchemaSdl,
  latestRelease,
  restSignature,
  serializeSignature,
} from './api-compatibility';

/**
 * `npm run api:release -- <version>`: cuts a release of the REST APIs and the GraphQL schema. It writes the snapshot
 * the compatibility test compares against (docs/api/releases/<version>/: the REST signature and the API schema of
 * gateway/supergraph.graphql) and moves CHANGELOG.md's Unreleased entries under `## [<version>] - <today>`.
 * `npm run api:release -- --check`: the breaking changes since the last release, and whether each is announced (exit 1
 * when one is not). docs/api/versioning.md.
 */

const USAGE = 'usage: npm run api:release -- <major.minor.patch> [--date YYYY-MM-DD] | --check';

export async function cutRelease(version: string, date: string, root = projectRoot()): Promise<string[]> {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(USAGE);
  const latest = latestRelease(root);
  if (latest && compareVersions(version, latest.version) <= 0)
    throw new Error(`${version} is not after the last release ${latest.version}`);
  const dir = path.join(root, RELEASES_DIR, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, REST_SNAPSHOT), serializeSignature(restSignature(await openApiDocument())));
  writeFileSync(path.join(dir, GRAPHQL_SNAPSHOT), currentApiSchemaSdl(root));
  const changelogFile = path.join(root, CHANGELOG);
  writeFileSync(changelogFile, releaseChangelog(readFileSync(changelogFile, 'utf8'), version, date));
  return [path.join(RELEASES_DIR, version, REST_SNAPSHOT), path.join(RELEASES_DIR, version, GRAPHQL_SNAPSHOT), CHANGELOG];
}

/** The changelog with the Unreleased entries under a new release heading and an empty Unreleased section above it. */
export function releaseChangelog(changelog: string, version: string, date: string): string {
  const heading = /^## \[Unreleased\]\s*$/m.exec(changelog);
  if (!heading) throw new Error(`${CHANGELOG} has no "## [Unreleased]" section`);
  const after = changelog.slice(heading.index + heading[0].length);
  const next = /^## /m.exec(after);
  const entries = (next ? after.slice(0, next.index) : after).trim();
  const rest = next ? after.slice(next.index) : '';
  return `${changelog.slice(0, heading.index)}## [Unreleased]\n\n## [${version}] - ${date}\n\n${entries}\n\n${rest}`.replace(
    /\n{3,}/g,
    '\n\n',
  );
}

async function check(root = projectRoot()): Promise<number> {
  const latest = latestRelease(root);
  if (!latest) throw new Error(`no release under ${RELEASES_DIR}`);
  const { breaking, unannounced } = compareWithRelease(
    latest.dir,
    { rest: restSignature(await openApiDocument()), graphqlSdl: currentApiSchemaSdl(root) },
    existsSync(path.join(root, CHANGELOG)) ? readFileSync(path.join(root, CHANGELOG), 'utf8') : '',
  );
  process.stdout.write(JSON.stringify({ since: latest.version, breaking, unannounced }, null, 2) + '\n');
  return unannounced.length > 0 ? 1 : 0;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--check')) return check();
  const version = args.find((a) => !a.startsWith('--'));
  const dateAt = args.indexOf('--date');
  const date = dateAt >= 0 ? args[dateAt + 1] : new Date().toISOString().slice(0, 10);
  if (!version || !/^\d{4}-\d{2}-\d{2}$/.test(date ?? '')) throw new Error(USAGE);
  process.stdout.write(JSON.stringify({ written: await cutRelease(version, date) }) + '\n');
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
