/**
 * The core API (core-api.md): sign-in (OTP, external identity, session cache, secret rotation), the app's
 * merchant routes and its GraphQL gateway (batching, identity, limits, operators, roles, reference data), the
 * internal endpoints, notifications, the generated OpenAPI client and the integrators' signing samples.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md);
 * `graphql-roles` before `core-merchant`, which adds a member to the demo merchant whose members it counts.
 */
import { shareStacks } from '../support/test-stack';
import './graphql-dataloader.spec';
import './graphql-roles.spec';
import './core-merchant.spec';
import './graphql-identity.spec';
import './graphql-limits.spec';
import './graphql-operators.spec';
import './reference-data.spec';
import './core-auth.spec';
import './core-auth-external.spec';
import './core-auth-session-cache.spec';
import './secret-rotation.spec';
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
