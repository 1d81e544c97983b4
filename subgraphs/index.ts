import type { SubgraphDefinition } from '@lib/federation/subgraph-definition';
import { catalogSubgraph } from './catalog/src/app';
import { merchantSubgraph } from './merchant/src/app';
import { outletSubgraph } from './outlet/src/app';
import { transactionSubgraph } from './transaction/src/app';

/** All subgraphs, in dependency-free order; tooling iterates this list. */
export const SUBGRAPHS: SubgraphDefinition<any>[] = [merchantSubgraph, outletSubgraph, transactionSubgraph, catalogSubgraph];
