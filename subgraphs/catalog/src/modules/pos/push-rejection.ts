/**
 * Why one pushed outbox item was not applied; its text goes to the device in `rejected` (core-api.md §4). The
 * item's savepoint is rolled back and nothing of it stays, so the device may correct and resend it.
 */
export class PushRejection extends Error {}

type Payload = Record<string, unknown>;

export function text(payload: Payload, field: string, max: number, required: boolean): string | null {
  const value = payload[field];
  if (value == null || value === '') {
    if (required) throw new PushRejection(`${field} is required`);
    return null;
  }
  if (typeof value !== 'string' || value.trim().length > max)
    throw new PushRejection(`${field} must be a string of at most ${max} characters`);
  return value.trim() || null;
}

export function integer(payload: Payload, field: string, min: number, fallback?: number): bigint {
  const value = payload[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new PushRejection(`${field} must be an integer${min === 0 ? ' ≥ 0' : min === 1 ? ' > 0' : ''}`);
  }
  return BigInt(value);
}

export function uuid(payload: Payload, field: string, required: boolean): string | null {
  const value = payload[field];
  if (value == null) {
    if (required) throw new PushRejection(`${field} is required`);
    return null;
  }
  if (typeof value !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
    throw new PushRejection(`${field} must be a UUID`);
  }
  return value.toLowerCase();
}

/** Epoch milliseconds (core-api.md §4: transacted_at); within ±10 years of now. */
export function epochMillis(payload: Payload, field: string): Date {
  const value = payload[field];
  const tenYears = 10 * 366 * 86_400_000;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || Math.abs(value - Date.now()) > tenYears) {
    throw new PushRejection(`${field} must be epoch milliseconds`);
  }
  return new Date(value);
}
