import '@lib/telemetry/register';
import 'reflect-metadata';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { transactionSubgraph } from './app';

void runSubgraphProcess(transactionSubgraph);
