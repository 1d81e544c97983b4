import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * An encapsulated plugin (a context of its own) with a name. Without one, fastify looks for the function among the
 * exports of every loaded module at each registration: under Jest, whose module cache is a proxy, that cost 0.2 s of
 * CPU per test stack (docs/benchmarks.md, "The test suite").
 */
export function scopedPlugin(name: string, plugin: FastifyPluginAsync): FastifyPluginAsync {
  return fp(plugin, { name, encapsulate: true });
}
