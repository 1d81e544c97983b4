/**
 * Requests the framework and the limits answer: framework answers, signatures, GraphQL bad input, storable input, secrets in logs, size and time limits, error details.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './framework-answers.spec';
import './signatures.spec';
import './graphql-bad-input.spec';
import './storable-input.spec';
import './secrets-in-logs.spec';
import './limits.spec';
import './error-details.spec';

shareStacks();
