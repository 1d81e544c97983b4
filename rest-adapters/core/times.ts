import { MAKASSAR_TIMES } from '@lib/time/api-time';

/**
 * How the core API writes instants: core-api.md renders its periods in +08:00, so every instant of the API (its
 * answers, by the adapter's rule, and its live event streams) is Asia/Makassar local time with the offset
 * (docs/decisions/0017-local-time-through-iana-zones.md).
 */
export const CORE_TIMES = MAKASSAR_TIMES;
