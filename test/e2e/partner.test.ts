/**
 * The partner API (partner-api.md): tokens and signatures, data in both contracts, outlets, transaction pages.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './partner-auth.spec';
import './partner-data.spec';
import './partner-outlets.spec';
import './partner-transaction-page.spec';

shareStacks();
