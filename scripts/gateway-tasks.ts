import { randomUUID } from 'node:crypto';
import type { Principal } from '@lib/auth/principal';
import type { Config } from '@lib/config/config';
import { HttpError } from '@lib/rest/error-body';
import { GatewayClient } from '@lib/rest/gateway-client';
import type { RouteRuntime } from '@lib/rest/route';
import type { SandboxPaymentRequest } from '@rest-adapters/core/routes/internal/sandbox-payment-events/schema';
import { type SandboxPaymentOutcome, simulateSandboxPayment } from '@rest-adapters/core/routes/internal/sandbox-payment-events/simulate';

/** Operator commands that act on the running system through its gateway (GATEWAY_URL), not on the database. */

/** The operator command acts as an internal caller, as the internal endpoints do. */
const OPS: Principal = { kind: 'internal', service: 'ops' };

/** A gateway call failed as documented: the REST error code and status, kept for the command's error output. */
export class GatewayTaskError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * `sandbox:simulate-payment`: the sandbox simulation of `POST /internal/sandbox/payment-events` (simulate.ts, the same
 * code), run through the gateway with the REST adapters' service token, so that the event takes the bank intake's
 * path and the live streams, the push and the dynamic QRIS match follow (docs/decisions/0015-demo-data-and-sandbox.md).
 */
export async function simulateSandboxPaymentViaGateway(config: Config, input: SandboxPaymentRequest): Promise<SandboxPaymentOutcome> {
  const client = new GatewayClient(config.gatewayUrl, 'ops', config.secrets.serviceTokenSecret, config.gatewayTimeoutMs);
  const runtime: RouteRuntime = {
    config,
    execute: (operation, variables, options) => client.execute(operation, variables, { requestId: randomUUID(), acting: OPS, ...options }),
  };
  try {
    return await simulateSandboxPayment(runtime, input);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const message =
      error.code === 'service_unavailable'
        ? `the gateway at ${config.gatewayUrl} is unreachable: start the system (npm start) first`
        : error.message;
    throw new GatewayTaskError(error.code, error.status, message);
  } finally {
    await client.close();
  }
}
