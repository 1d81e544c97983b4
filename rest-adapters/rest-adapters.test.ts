/**
 * The REST adapters' specs (`*.spec.ts`) in one Jest file, so that their module graph is loaded once, not once per spec
 * (test/README.md, "Area files and specs").
 */
import './core/routes/internal/transaction-status/gateway-status.spec';
import './core/routes/shared/merchant-period.spec';
import './gateway.spec';
import './operations-thread.spec';
import './psp/routes/shared/bank-batch.spec';
