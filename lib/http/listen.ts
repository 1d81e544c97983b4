import type { FastifyInstance } from 'fastify';

/** Listens, then closes gracefully (in-flight requests finish) on SIGINT or SIGTERM. */
export async function listenUntilSignal(app: FastifyInstance, host: string, port: number): Promise<string> {
  const address = await app.listen({ host, port });
  const stop = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return address;
}
