import type { HealthResponse } from './schema';

export interface CoreHealthData {
  referenceDataStatus: { loaded: boolean };
}

export const UNAVAILABLE: HealthResponse = { service: 'core', status: 'unavailable', db_reference_status: 'unavailable' };

export function toHealthResponse(data: CoreHealthData): HealthResponse {
  const loaded = data.referenceDataStatus.loaded;
  return { service: 'core', status: loaded ? 'ok' : 'degraded', db_reference_status: loaded ? 'ok' : 'empty' };
}
