import { type Static, Type } from '@sinclair/typebox';
import { SANDBOX_CLOCK_MAX_STEP_SECS } from '@lib/domain/sandbox/sandbox-bank';

export const SandboxClock = Type.Object(
  {
    now: Type.String({ format: 'date-time', description: 'Your sandbox’s current time: the real time plus offset_secs.' }),
    offset_secs: Type.Integer({ minimum: 0, description: 'How far you advanced your sandbox since it was issued or last reset.' }),
  },
  { additionalProperties: false },
);
export type SandboxClock = Static<typeof SandboxClock>;

export const SandboxClockAdvanceRequest = Type.Object(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: SANDBOX_CLOCK_MAX_STEP_SECS,
      description: `How far to advance your sandbox’s clock: 1 s to 30 days (${SANDBOX_CLOCK_MAX_STEP_SECS}) per call.`,
    }),
  },
  { additionalProperties: false },
);
export type SandboxClockAdvanceRequest = Static<typeof SandboxClockAdvanceRequest>;

export const SandboxClockAdvance = Type.Object(
  {
    now: SandboxClock.properties.now,
    offset_secs: SandboxClock.properties.offset_secs,
    webhook_deliveries_moved: Type.Integer({
      description: 'Your pending webhook deliveries whose next attempt moved closer by `seconds` (those now due are sent at once).',
    }),
    qris_payments_moved: Type.Integer({
      description:
        'Your sandbox merchants’ pending dynamic QRIS payments that expire `seconds` sooner (those now past `expires_at` read `expired`).',
    }),
  },
  { additionalProperties: false },
);
export type SandboxClockAdvance = Static<typeof SandboxClockAdvance>;
