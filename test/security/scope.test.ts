/**
 * Tenant scope: the isolation matrix, the app's role and outlet matrix, the bank adapter asking wrongly, QRIS outlets.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './tenant-isolation.spec';
import './app-scope-matrix.spec';
import './bank-scope.spec';
import './qris-outlet-scope.spec';

shareStacks();
