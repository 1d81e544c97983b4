import '@lib/telemetry/register';
import 'reflect-metadata';
import { runSubgraphProcess } from '@lib/federation/run-subgraph';
import { merchantSubgraph } from './app';

/** The merchant subgraph; its job worker (webhooks, notifications) starts and stops with the server (app.ts `jobs`). */
void runSubgraphProcess(merchantSubgraph);
