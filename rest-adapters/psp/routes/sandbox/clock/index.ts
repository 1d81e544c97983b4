import { errorResponses } from '@lib/rest/error-body';
import { defineRoute } from '@lib/rest/route';
import { PspSandboxClockDocument } from '@rest-adapters/generated/operations';
import { SANDBOX_ERRORS, SANDBOX_ROUTE_NOTES, sandboxCaller, sandboxSignature } from '../sandbox-bank';
import { SandboxClock } from './schema';

export default defineRoute({
  method: 'GET',
  url: '/psp/v1/sandbox/clock',
  summary: 'Read your sandbox’s clock',
  description: [
    'Your sandbox’s current time: the real time plus everything you advanced it by (`POST /psp/v1/sandbox/clock/advance`) since it was issued or last reset.',
    ...SANDBOX_ROUTE_NOTES,
  ].join('\n'),
  tags: ['psp: sandbox'],
  schema: { response: { 200: SandboxClock, ...errorResponses(401, 403, 429) } },
  operationId: 'PspSandboxClock',
  errors: { 403: ['live_bank'] },
  examples: { responses: { 200: { now: '2026-11-26T02:41:27Z', offset_secs: 86400 } }, errors: SANDBOX_ERRORS },
  authenticate: sandboxSignature,
  rateLimit: { max: 600, windowSecs: 60 },
  run: async (_input, ctx) => {
    sandboxCaller(ctx.request);
    const { sandboxClock } = await ctx.execute(PspSandboxClockDocument, {});
    return { now: sandboxClock.now, offset_secs: sandboxClock.offsetSecs };
  },
});
