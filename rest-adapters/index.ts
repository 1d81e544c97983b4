import { coreAdapter } from './core';
import { partnerAdapter } from './partner';
import { pspAdapter } from './psp';

/** Every REST adapter served by the REST process. */
export const REST_ADAPTERS = [pspAdapter, partnerAdapter, coreAdapter];
