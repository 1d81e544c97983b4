/**
 * The bank API's end-to-end specs, every subgraph pool through PgBouncer (global-setup.ts): one Jest file, so the specs
 * share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import '../e2e/psp-lookups.spec';
import '../e2e/psp-intake.spec';
import '../e2e/psp-payment-targets.spec';
import '../e2e/psp-bank-view.spec';

shareStacks();
