'use strict';
// `npm run ops`: runs the built operator CLI (dist/scripts/ops.js) at once, and rebuilds first only when a source is
// newer than the build: the newest modification time under the compiled folders (and the build's own settings)
// against the newest under dist/. Plain JavaScript, so that it runs before anything is built; a cheap check (about
// 2,000 stats). docs/decisions/0015-demo-data-and-sandbox.md.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SOURCES = ['gateway', 'subgraphs', 'rest-adapters', 'lib', 'scripts', 'bench', '.swcrc', 'package.json', 'tsconfig.json'];

/** The newest modification time (ms) of a file or of every file under a folder; 0 when absent. */
function newest(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const at = newest(path.join(file, entry.name));
    if (at > latest) latest = at;
  }
  return latest;
}

/** Whether `entry` (under root/dist) is missing or older than a source. */
function isStale(root, entry, sources = SOURCES) {
  if (!existsSync(path.join(root, 'dist', entry))) return true;
  const built = newest(path.join(root, 'dist'));
  return sources.some((source) => newest(path.join(root, source)) > built);
}

module.exports = { isStale, newest };

if (require.main === module) {
  const entry = path.join('scripts', 'ops.js');
  if (isStale(ROOT, entry)) {
    process.stderr.write('sources changed since the last build: building (npm run build) …\n');
    execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const { runOps } = require(path.join(ROOT, 'dist', entry));
  void runOps(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY,
  }).then((code) => process.exit(code));
}
