/**
 * The point of sale on both surfaces: sync push and pull, the catalogue.
 * One Jest file, so the specs share one module graph and the stack of the default configuration (test/README.md).
 */
import { shareStacks } from '../support/test-stack';
import './pos-sync.spec';
import './pos-catalog.spec';
import './pos-till-close.spec';

shareStacks();
