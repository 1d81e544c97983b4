/**
 * The app's sign-in (core-api.md): phone and OTP, external verification, session caches, rotating secrets.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './core-auth.spec';
import './core-auth-external.spec';
import './core-auth-session-cache.spec';
import './secret-rotation.spec';

shareStacks();
