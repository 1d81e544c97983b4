import { type Static, Type } from '@sinclair/typebox';
import { SettlementRequest, SettlementResponse } from '@rest-adapters/psp/routes/settlements/record/schema';

export const SandboxSettlementRequest = Type.Object(
  {
    nmid: Type.String({ pattern: '^ID99[0-9]{13}$', description: 'One of your sandbox NMIDs (ID99 followed by 13 digits).' }),
    settlement_date: Type.Optional(
      Type.String({ format: 'date', description: 'The business date (Asia/Jakarta) to settle; default today in Jakarta.' }),
    ),
    settlement_id: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9._:-]{1,100}$',
        description:
          'Your settlement_id (default `SBX-STL-<nmid>-<settlement_date>`): the same id again is a replay, answered `duplicate_skipped`; a new id settles what became unsettled since.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SandboxSettlementRequest = Static<typeof SandboxSettlementRequest>;

export const SandboxSettlementResult = Type.Object(
  {
    ...SettlementResponse.properties,
    settlement: Type.Object(SettlementRequest.properties, {
      description: 'The settlement as sent to the intake this time (a replay answers the first one’s result).',
    }),
  },
  { additionalProperties: false },
);
export type SandboxSettlementResult = Static<typeof SandboxSettlementResult>;
