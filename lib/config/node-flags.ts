/**
 * Node's flags for every server process (REST, gateway, subgraphs), wherever it is launched: `npm start`, compose,
 * Kubernetes, the benchmarks and the resilience suite.
 *
 * `--no-memory-reducer`: V8's memory reducer has a watchdog that forces a fully compacting collection on an isolate
 * that has gone 100 s without a full one. In the REST process every isolate (the main thread and each operations
 * thread) had its last full collection at start, so about 100 s later all of them compacted at once, pausing 0.15-0.7 s
 * each under the documented mix on two cores: the one stall of every `bench:mixed` run (docs/benchmarks.md,
 * "Mixed load"). Without it an old generation is collected when it reaches its limit, with pauses of tens of milliseconds;
 * a server under steady load gains nothing from a collection meant for idle memory.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
