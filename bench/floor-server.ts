import Fastify from 'fastify';
import { Pool } from 'pg';

/**
 * The floor of the reference-cities benchmark: a bare fastify server that runs the merchant subgraph's
 * cities SQL through a pg.Pool and answers the REST response shape. No gateway, no GraphQL, no ORM, no
 * logging, no metrics: the most any implementation could do on this machine. Run as its own process by
 * bench/reference-cities.ts (the stack's processes are separate too).
 *
 * Environment: DATABASE_URL (required), FLOOR_PORT (default 18082), DB_POOL_MAX (default 10, as the subgraph).
 */
const CITIES_SQL = 'select id, code, province_id, name, type from merchant.cities where province_id = $1 order by name asc';

interface CityRow {
  id: number;
  code: string;
  province_id: number;
  name: string;
  type: string;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const port = Number(process.env.FLOOR_PORT ?? 18082);
  const pool = new Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_MAX ?? 10) });

  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ service: 'floor', status: 'ok' }));
  app.get<{ Querystring: { province_id: number } }>(
    '/floor/cities',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { province_id: { type: 'integer', minimum: 1 } },
          required: ['province_id'],
          additionalProperties: false,
        },
        response: {
          200: {
            type: 'object',
            required: ['items'],
            properties: {
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'code', 'name', 'type'],
                  properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
    async (req) => {
      const { rows } = await pool.query<CityRow>(CITIES_SQL, [req.query.province_id]);
      return { items: rows.map((r) => ({ id: r.id, code: r.code, name: r.name, type: r.type })) };
    },
  );

  await app.listen({ host: '127.0.0.1', port });
  const stop = () => {
    app
      .close()
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`floor failed: ${error.message}\n`);
  process.exit(1);
});
