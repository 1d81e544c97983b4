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

  it('satisfies the peer dependencies of every locked package, but for the overrides package.json declares (no ERESOLVE)', () => {
    // npm does not warn at install (.npmrc: loglevel=error), so a peer conflict must fail here instead.
    type Entry = {
      version?: string;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    const lock = readJson('package-lock.json') as { packages: Record<string, Entry> };
    const overrides = (readJson('package.json').overrides ?? {}) as Record<string, string>;
    /** Where Node resolves `name` from the package at `at`: its own node_modules, then each enclosing one. */
    const resolve = (at: string, name: string): Entry | undefined => {
      for (let dir = at; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
        const found = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
        if (found) return found;
        if (!dir) return undefined;
      }
    };
    const conflicts = Object.entries(lock.packages).flatMap(([at, entry]) =>
      Object.entries(entry.peerDependencies ?? {})
        .filter(([name]) => !entry.peerDependenciesMeta?.[name]?.optional && overrides[name] === undefined)
        .filter(([name, range]) => {
          const version = resolve(at, name)?.version;
          return version !== undefined && !semver.satisfies(version, range, { includePrerelease: true });
        })
        .map(([name, range]) => `${at} wants ${name}@${range}, gets ${resolve(at, name)?.version}`),
    );
    expect(conflicts).toEqual([]);
    // An override is only for a peer range narrower than its package's own semver promise: the root pins the version.
    for (const [name, value] of Object.entries(overrides)) expect(value).toBe(`$${name}`);
  });
});
