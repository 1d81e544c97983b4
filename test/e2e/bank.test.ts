/**
 * The two APIs of outside parties. The bank API (psp-api.md): lookups, intake, payment targets, the bank view, the
 * sandbox, and its reference page in a browser. The partner API (partner-api.md): tokens and signatures, data in both
 * contracts, outlets, transaction pages.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './psp-lookups.spec';
import './psp-intake.spec';
import './psp-payment-targets.spec';
import './psp-mdr-policy.spec';
import './psp-bank-view.spec';
import './sandbox.spec';
import './sandbox-bank.spec';
import './reference-ui.spec';
import './partner-auth.spec';
import './partner-data.spec';
import './partner-outlets.spec';
import './partner-transaction-page.spec';

shareStacks();
