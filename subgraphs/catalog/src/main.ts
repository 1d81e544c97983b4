import '@lib/telemetry/register';
import 'reflect-metadata';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { catalogSubgraph } from './app';

void runSubgraphProcess(catalogSubgraph);
