import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { type SerializedError, stdSerializers } from 'pino';
import type { Config } from '../config/config';
import { activeTraceFields, tracingStarted } from '../telemetry/tracing';

/** Where log lines go instead of stdout (tests capture them). */
export interface LogStream {
  write(line: string): void;
}

/** Header names and body keys that carry secrets; pino replaces them wherever they appear in a log object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-internal-api-key"]',
  'req.headers["x-principal"]',
  'req.headers["x-acting-principal"]',
  'req.headers["x-signature"]',
  'req.headers["x-psp-signature"]',
  'req.headers["x-partner-signature"]',
  'headers.authorization',
  '*.credential_secret',
  '*.password',
  '*.otp',
  '*.id_token',
  '*.refresh_token',
  '*.access_token',
];

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** X-Request-ID as sent when it is well formed, otherwise a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Query values that are credentials are not logged (e.g. the device-login cancel token). */
function safeUrl(url: string | undefined): string | undefined {
  if (!url || !url.includes('?')) return url;
  return url.replace(/([?&](?:token|code|secret|key)=)[^&]*/gi, '$1[REDACTED]');
}

/**
 * pino's error serializer, without the `client` that pg-pool attaches to the error of a connection it loses while idle
 * (a database restart): the whole pg client, its settings, prepared statements and socket state, kilobytes in each line.
 */
function serializeError(error: Error): SerializedError {
  const serialized = stdSerializers.err(error);
  delete serialized.client;
  return serialized;
}

/**
 * Fastify options shared by every process: pino JSON logs with the request id in every line and, when tracing is
 * on, the active trace_id and span_id.
 */
export function fastifyLoggingOptions(config: Config, service: string, stream?: LogStream): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      ...(stream ? { stream } : {}),
      base: { service },
      ...(tracingStarted() ? { mixin: activeTraceFields } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      serializers: {
        err: serializeError,
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: safeUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    genReqId: requestIdOf,
  };
}
