/**
 * The suites that walk every REST route: the time rule of every JSON answer (e2e/time-rule.spec.ts, first: its walk
 * needs the demo data as seeded), malformed input and SQL injection. One Jest file, so the specs share one module graph and
 * the security suites' stack (route-requests.ts), each started once (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import '../e2e/time-rule.spec';
import './bad-input.spec';
import './sql-injection.spec';

shareStacks();
