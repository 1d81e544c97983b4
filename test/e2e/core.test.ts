/**
 * The app's merchant routes, the internal endpoints, notifications, the generated OpenAPI client and the
 * integrators' signing samples.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './core-merchant.spec';
import './core-internal.spec';
import './core-notifications.spec';
import './core-daily-summary.spec';
import './core-automatic-suspension.spec';
import './core-message-language.spec';
import './core-settlement-accounts.spec';
import './core-statements.spec';
import './core-reconciliation.spec';
import './openapi-client.spec';
import './integrator-samples.spec';

shareStacks();
