const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** The file whose suites walk every REST route: among the longest of the run, though small beside the area files' specs. */
const ROUTE_WIDE = /[\\/]test[\\/]security[\\/]route-wide\.test\.ts$/;
const SPEC_IMPORT = /^import '(\.\.?\/[^']+\.spec)';$/gm;

/** A file's size with the specs it imports: an area's Jest file (test/e2e/bank.test.ts) is a few lines of imports. */
function sizeWithSpecs(file) {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(SPEC_IMPORT)].map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`));
  return specs.reduce((sum, spec) => sum + fs.statSync(spec).size, text.length);
}

/**
 * Jest's own order (a file that failed last time first, then the longest by the last run's times) where it knows the
 * times; on a fresh clone, as on CI, it has none and orders by file size: the route-wide file first (beside `core`,
 * the largest), then by size with the specs an area's file imports. Otherwise the run ended with one worker on a long
 * file and the other idle.
 */
module.exports = class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => this.time(test) !== undefined)) return sorted;
    const size = new Map(sorted.map((test) => [test.path, ROUTE_WIDE.test(test.path) ? Infinity : sizeWithSpecs(test.path)]));
    return [...sorted].sort((a, b) => size.get(b.path) - size.get(a.path));
  }
};
