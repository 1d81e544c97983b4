import { type Static, Type } from '@sinclair/typebox';

const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')]);

export const HealthResponse = Type.Object({
  service: Type.String(),
  status: Type.Union([Status], { description: 'ok; degraded when reference data is missing; unavailable when the database is down.' }),
  db_reference_status: Type.Union([Type.Literal('ok'), Type.Literal('empty'), Type.Literal('unavailable')]),
});
export type HealthResponse = Static<typeof HealthResponse>;
