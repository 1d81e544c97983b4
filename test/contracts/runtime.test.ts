import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

/**
 * The project runs on the Node 24 of its own `node` dev dependency (node_modules/.bin/node, first on the
 * PATH of every npm script), not on the machine's Node: jest workers, `npm start`'s children and the
 * benches inherit it through process.execPath.
 */
describe('runtime', () => {
  const pkg = readJson('package.json') as { engines: { node: string }; devDependencies: Record<string, string> };

  it('is the Node 24 LTS that package.json pins and its engines accept', () => {
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
    expect(semver.major(process.version)).toBe(24);
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('satisfies the engines of every locked package (no EBADENGINE on this runtime)', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refused = Object.entries(lock.packages)
      .filter(([, info]) => info.engines && !Array.isArray(info.engines) && info.engines.node)
      .filter(([, info]) => !semver.satisfies(process.version, (info.engines as { node: string }).node))
      .map(([name]) => name);
    expect(refused).toEqual([]);
  });
});
