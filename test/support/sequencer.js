const Sequencer = require('@jest/test-sequencer').default;

/** The suites that try every REST route: the longest files of the run, though not the largest. */
const ROUTE_WIDE = /[\\/]test[\\/]security[\\/]/;

/**
 * Jest's own order (a file that failed last time first, then the longest by the last run's times, else the largest
 * file), with the route-wide suites moved to the front. A fresh clone, as on CI, has no times, and by file size these
 * files came last: the run ended with one worker on a two-minute file and the other idle.
 */
module.exports = class RouteWideFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    return [...sorted.filter((test) => ROUTE_WIDE.test(test.path)), ...sorted.filter((test) => !ROUTE_WIDE.test(test.path))];
  }
};
