import { type ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { PRINCIPAL_HEADER, PrincipalVerifier } from '../auth/principal';
import type { Config, SubgraphName } from '../config/config';
import { subgraphDatabaseUrl } from '../db/database-urls';
import type { Orm } from '../db/orm';
import { ReadReplica } from '../db/read-replica';
import type { SubgraphContext } from './subgraph-context';
import { type SubgraphDefinition, openReplicaOrm, openSubgraphOrm, subgraphSchema } from './subgraph-definition';
import { NO_PRINCIPAL_BODY, createSubgraphApollo, requestOrm, subgraphContext } from './subgraph-server';

/** A subgraph's answer as its HTTP endpoint gives it: the status and the JSON text. */
export interface SubgraphAnswer {
  status: number;
  text: string;
}

const UNAUTHENTICATED_ANSWER: SubgraphAnswer = { status: 401, text: JSON.stringify(NO_PRINCIPAL_BODY) };

/**
 * A subgraph run inside another process (REST's by default, REST_SUBGRAPHS; docs/decisions/0009-how-operations-execute.md):
 * the subgraph's own schema, resolvers and services on its own ORM (its own role and schema), behind the same
 * principal check, Apollo settings and error formatting as its HTTP endpoint, answering the same status and JSON
 * text, without a socket, an HTTP parse or another process's wake-up. It runs no job worker and no HTTP server:
 * its process still does that.
 */
export class EmbeddedSubgraph<Scope extends object = object> {
  private constructor(
    readonly name: SubgraphName,
    private readonly apollo: ApolloServer<SubgraphContext<Scope>>,
    readonly orm: Orm,
    /** Its streaming replica's, for the reads that tolerate lag (its own, closed with it). */
    private readonly replica: ReadReplica | undefined,
    private readonly requestScope: (em: EntityManager) => Scope,
    private readonly principals: PrincipalVerifier,
    private readonly log: FastifyBaseLogger,
    private readonly closeResources: (() => Promise<void>) | undefined,
    private readonly ownsOrm: boolean,
  ) {}

  /** Opens the subgraph on its own ORM, or on `sharedOrm`, its server's in the same process (the test stack), left open at close. */
  static async open<Scope extends object>(
    definition: SubgraphDefinition<Scope>,
    config: Config,
    log: FastifyBaseLogger,
    sharedOrm?: Orm,
  ): Promise<EmbeddedSubgraph<Scope>> {
    const subgraphLog = log.child({ subgraph: definition.name });
    const [schema, orm, replicaOrm] = await Promise.all([
      subgraphSchema(definition as SubgraphDefinition),
      sharedOrm ?? openSubgraphOrm(definition, config),
      openReplicaOrm(definition as SubgraphDefinition, config),
    ]);
    const apollo = createSubgraphApollo<Scope>(
      schema,
      [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled()],
      subgraphLog,
    );
    await apollo.start();
    const closeResources = definition.open?.(config, subgraphLog, subgraphDatabaseUrl(config, definition.name));
    return new EmbeddedSubgraph(
      definition.name,
      apollo,
      orm,
      ReadReplica.of(replicaOrm, orm, config.database.replicaMaxLagMs, subgraphLog),
      (em) => definition.requestScope(em, config),
      new PrincipalVerifier(config.secrets.accepted.principalSecret),
      subgraphLog,
      closeResources,
      sharedOrm === undefined,
    );
  }

  /** Runs one subgraph request (the body the gateway would POST, with its headers) as the subgraph's endpoint would. */
  async execute(body: Record<string, unknown>, headers: Record<string, string>): Promise<SubgraphAnswer> {
    const principal = await this.principals.verify(headers[PRINCIPAL_HEADER]);
    if (!principal) return UNAUTHENTICATED_ANSWER;
    const requestId = headers['x-request-id'] ?? '';
    const log = this.log.child({ reqId: requestId });
    const response = await this.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers: new HeaderMap(Object.entries(headers)), search: '', body },
      context: async () =>
        subgraphContext(requestOrm(this.orm, this.replica, body, principal), this.requestScope, principal, requestId, log),
    });
    if (response.body.kind !== 'complete') throw new Error(`${this.name}: an incremental answer was not expected`);
    return { status: response.status ?? 200, text: response.body.string };
  }

  async close(): Promise<void> {
    await this.apollo.stop();
    await this.closeResources?.();
    await this.replica?.close();
    if (this.ownsOrm) await this.orm.close();
  }
}
