/**
 * Tenant scope (QRIS outlets, the bank adapter asking wrongly, the isolation matrix, the app's role and outlet matrix)
 * and what the framework and the limits answer (framework answers, signatures, GraphQL bad input, storable input,
 * secrets in logs, size and time limits, error details). One Jest file, so the specs share one module graph and the
 * stack of the default configuration (the bank adapter's spec with a REST app of its own on it); the isolation and
 * app matrices share a stack of the security suites' settings (route-requests.ts) (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './qris-outlet-scope.spec';
import './bank-scope.spec';
import './tenant-isolation.spec';
import './app-scope-matrix.spec';
import './framework-answers.spec';
import './signatures.spec';
import './graphql-bad-input.spec';
import './storable-input.spec';
import './secrets-in-logs.spec';
import './limits.spec';
import './error-details.spec';

shareStacks();
