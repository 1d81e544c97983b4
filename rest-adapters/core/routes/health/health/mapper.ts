import type { CoreHealthQuery } from '@rest-adapters/generated/operations';
import type { HealthResponse } from './schema';

export const UNAVAILABLE: HealthResponse = { service: 'core', status: 'unavailable', db_reference_status: 'unavailable' };

export function toHealthResponse(data: CoreHealthQuery): HealthResponse {
  const loaded = data.referenceDataStatus.loaded;
  return { service: 'core', status: loaded ? 'ok' : 'degraded', db_reference_status: loaded ? 'ok' : 'empty' };
}
