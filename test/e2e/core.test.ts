/**
 * The app's merchant routes, the internal endpoints, notifications, and the generated OpenAPI client.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './core-merchant.spec';
import './core-internal.spec';
import './core-notifications.spec';
import './openapi-client.spec';

shareStacks();
