/**
 * The point of sale and QRIS. The point of sale on both surfaces: sync push and pull, the catalogue, the till's close.
 * QRIS: static and dynamic payloads, live payment events, the payment feed's retention.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './pos-sync.spec';
import './pos-catalog.spec';
import './pos-till-close.spec';
import './qris-static.spec';
import './qris-dynamic.spec';
import './payments-live.spec';
import './payments-live-wakeup.spec';
import './payment-feed-retention.spec';

shareStacks();
