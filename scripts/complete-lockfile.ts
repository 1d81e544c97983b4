import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '@lib/config/project-root';

/**
 * `npm run lockfile:complete` after `npm install` on a machine whose registry mirror serves only its own
 * platform's binaries: npm then leaves the other platforms' optional packages (@swc/core-darwin-arm64, …)
 * out of package-lock.json, and `npm ci` refuses the lock everywhere. This adds them back as optional,
 * platform-restricted entries (version, os, cpu, libc), so `npm ci` accepts the lock; on a matching
 * platform npm fetches them from the registry by name and version.
 */
type LockEntry = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
};

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU: [RegExp, string][] = [
  [/-(arm64|aarch64)(-|$)/, 'arm64'],
  [/-x64(-|$)/, 'x64'],
  [/-ia32(-|$)/, 'ia32'],
  [/-arm(-|$)/, 'arm'],
  [/-ppc64(-|$)/, 'ppc64'],
  [/-s390x(-|$)/, 's390x'],
  [/-riscv64(-|$)/, 'riscv64'],
  [/-loong64(-|$)/, 'loong64'],
  [/-wasm32(-|$)/, 'wasm32'],
];

export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | null {
  const os = OS.find((candidate) => name.includes(`-${candidate}-`));
  const cpu = CPU.find(([pattern]) => pattern.test(name))?.[1];
  if (!os || !cpu) return null;
  const libc = os === 'linux' ? (/-musl/.test(name) ? ['musl'] : /-gnu/.test(name) ? ['glibc'] : undefined) : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

function main(): void {
  const file = path.join(projectRoot(), 'package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
  const added: string[] = [];
  for (const entry of Object.values(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const key = `node_modules/${name}`;
      const platform = platformOf(name);
      if (lock.packages[key] || !platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
      added.push(`${name}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ added })}\n`);
}

main();
