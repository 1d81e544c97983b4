import '@lib/telemetry/register';
import 'reflect-metadata';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { outletSubgraph } from './app';

void runSubgraphProcess(outletSubgraph);
