/**
 * The gateway as an API of its own: batching, identity, limits, operators, roles, reference data.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './graphql-dataloader.spec';
import './graphql-identity.spec';
import './graphql-limits.spec';
import './graphql-operators.spec';
import './graphql-roles.spec';
import './reference-data.spec';

shareStacks();
