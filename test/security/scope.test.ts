/**
 * Tenant scope: the isolation matrix, the app's role and outlet matrix, the bank adapter asking wrongly, QRIS outlets.
 * One Jest file, so the specs share one module graph; the first two share a stack of the security suites' settings
 * (route-requests.ts), the last two the default one (the bank adapter's spec with a REST app of its own), each started
 * once (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './tenant-isolation.spec';
import './app-scope-matrix.spec';
import './bank-scope.spec';
import './qris-outlet-scope.spec';

shareStacks();
