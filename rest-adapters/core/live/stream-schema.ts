import { Type } from '@sinclair/typebox';
import { HttpError } from '@lib/rest/error-body';

/** `Last-Event-ID` (what EventSource sends on a reconnect), or `last_event_id` in the query for clients that cannot set headers. */
export const StreamQuery = Type.Object({
  last_event_id: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,19}$', description: 'As the `Last-Event-ID` header (which wins when both are sent).' }),
  ),
});

export const EventStream = Type.String({ description: 'text/event-stream (Server-Sent Events), described above.' });

/** The id to resume after, from the header or the query; 400 when it is not an event id; undefined for a fresh stream. */
export function lastEventIdOf(
  headers: Record<string, string | string[] | undefined>,
  query?: { last_event_id?: string },
): string | undefined {
  const header = headers['last-event-id'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim() || query?.last_event_id;
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,19}$/.test(value) || BigInt(value) > 9223372036854775807n)
    throw new HttpError(400, 'bad_request', 'Last-Event-ID must be an event id of this stream');
  return value;
}

export const STREAM_RULES = [
  'Server-Sent Events (`text/event-stream`): frames `id:` / `event:` / `data:` (one JSON object), a `retry: 3000` hint first, and a `: keep-alive` comment every 15 s (`LIVE_KEEPALIVE_MS`) so proxies keep the connection. The stream ends when the client disconnects.',
  'Delivery works whichever REST copy the client is connected to: events are stored in the transaction subgraph’s payment feed in the bank event’s own database transaction and every copy reads them from there, woken by a Redis signal (and every 5 s regardless).',
  'A stream ends after an hour (`LIVE_MAX_STREAM_MS`): reconnect with `Last-Event-ID`; the token and the member’s scope are checked again then.',
  'At most 10 open streams per user (per merchant on the service surface) and REST process: more answer 429 `rate_limit_exceeded`.',
].join('\n');
