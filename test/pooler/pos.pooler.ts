/**
 * The point of sale's end-to-end specs and dynamic QRIS, every subgraph pool through PgBouncer (global-setup.ts): one Jest file, so the specs
 * share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import '../e2e/pos-sync.spec';
import '../e2e/pos-catalog.spec';
import '../e2e/qris-dynamic.spec';
import '../e2e/pos-till-close.spec';

shareStacks();
