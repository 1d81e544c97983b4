import 'reflect-metadata';
import { runSubgraphProcess } from '../../../lib/federation/run-subgraph';
import { merchantSubgraph } from './app';

void runSubgraphProcess(merchantSubgraph);
