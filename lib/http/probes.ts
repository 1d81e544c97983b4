import type { FastifyInstance } from 'fastify';

/**
 * Liveness and readiness of one process (docs/decisions/0203-compose-and-image-proof.md), beside its `/health`:
 * - `GET /livez`: the process serves; it checks no dependency, so a database outage restarts nothing;
 * - `GET /readyz`: it should get traffic: not draining, and every readiness check passes (its database answers and
 *   holds the migrations this build expects). 503 names what fails.
 * On SIGTERM the process starts draining (lib/http/listen.ts): /readyz answers 503 at once, and every answer carries
 * `Connection: close`, so that clients' kept-alive connections move to another copy before this one stops accepting.
 */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency is usable; rejects (with a reason) when not. */
  check(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's drain state (lib/http/probes.ts); set by the shutdown on SIGTERM. */
    lifecycle: Lifecycle;
  }
}

export class Lifecycle {
  private drainingSince?: number;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}

/** The probes' paths (deploy/kubernetes probes them). */
export const LIVENESS_PATH = '/livez';
export const READINESS_PATH = '/readyz';

/** A check slower than this fails: a probe must answer within the orchestrator's timeout (1 s by default). */
export const READINESS_CHECK_TIMEOUT_MS = 800;

/** Registers /livez and /readyz on `app` (hidden from the API reference, logged only when they fail). */
export function registerProbes(app: FastifyInstance, checks: ReadinessCheck[] = []): void {
  const lifecycle = new Lifecycle();
  app.decorate('lifecycle', lifecycle);
  app.addHook('onSend', async (_req, reply, payload) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
  app.get(LIVENESS_PATH, { logLevel: 'warn', schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get(READINESS_PATH, { logLevel: 'warn', schema: { hide: true } }, async (_req, reply) => {
    if (lifecycle.draining) {
      reply.code(503);
      return { status: 'draining' };
    }
    const results = await Promise.all(
      checks.map(async (readiness) => {
        const name = readiness.name;
        const failure = await failureOf(() => readiness.check());
        // The reason goes to the log only: /readyz is on the public port.
        if (failure) app.log.warn({ check: name, reason: failure }, 'readiness check failing');
        return [name, failure ? 'failing' : 'ok'] as const;
      }),
    );
    const failing = results.filter(([, result]) => result !== 'ok');
    if (failing.length > 0) reply.code(503);
    return { status: failing.length > 0 ? 'unavailable' : 'ok', checks: Object.fromEntries(results) };
  });
}

/** Why `check` fails (or takes too long), undefined when it passes. */
async function failureOf(check: () => Promise<void>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)), READINESS_CHECK_TIMEOUT_MS);
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
