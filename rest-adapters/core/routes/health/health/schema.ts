import { type Static, Type } from '@sinclair/typebox';

export const HealthResponse = Type.Object({
  service: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')], {
    description: 'ok; degraded when reference data is missing; unavailable when the database is down.',
  }),
  db_reference_status: Type.Union([Type.Literal('ok'), Type.Literal('empty'), Type.Literal('unavailable')]),
});
export type HealthResponse = Static<typeof HealthResponse>;
