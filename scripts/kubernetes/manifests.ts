import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IIngressRule } from 'kubernetes-models/networking.k8s.io/v1/IngressRule';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyIngressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyIngressRule';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { ITopologySpreadConstraint } from 'kubernetes-models/v1/TopologySpreadConstraint';
import { METRICS_PORT_DEFAULT, PROCESS_NAMES, type ProcessName, SECRET_VARIABLES, SUBGRAPH_NAMES } from '@lib/config/config';
import { SERVER_NODE_FLAGS } from '@lib/config/node-flags';
import { LIVENESS_PATH, READINESS_PATH } from '@lib/http/probes';

/**
 * The Kubernetes manifests of the platform (deploy/kubernetes/, docs/decisions/0203-compose-and-image-proof.md): one
 * function of an environment's parameters (this module is the base; PRODUCTION and STAGING are the overlays), written
 * by `npm run kubernetes` as one Kustomize directory per environment and checked by `npm run kubernetes -- --check`.
 */

/** Any manifest: the typed ones above, and the custom resources of the operators (CloudNativePG, Prometheus Operator). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface ProcessSizing {
  /** Copies at least and at most (the HorizontalPodAutoscaler's bounds). */
  min: number;
  max: number;
  resources: IResourceRequirements;
}

export interface Environment {
  name: 'production' | 'staging';
  namespace: string;
  /** Public host names; the Ingress serves both with the TLS certificate in `tlsSecret`. */
  hosts: { rest: string; gateway: string };
  tlsSecret: string;
  ingressClass: string;
  /** Namespace of the ingress controller (only it reaches REST and the gateway) and of Prometheus (metrics port). */
  ingressNamespace: string;
  monitoringNamespace: string;
  /** Namespace of the CloudNativePG operator (it reaches the database pods' status port). */
  cnpgNamespace: string;
  sizing: Record<ProcessName, ProcessSizing>;
  /** Zones: `DoNotSchedule` keeps copies spread over zones even when one zone is full (production). */
  zoneSpread: ITopologySpreadConstraint['whenUnsatisfiable'];
  drainDelayMs: number;
  postgres: {
    instances: number;
    storage: string;
    walStorage: string;
    resources: IResourceRequirements;
    maxConnections: number;
    /** Object storage for base backups and WAL (s3://bucket/path); credentials in the secret `qris-backup-s3`. */
    backupPath: string;
    backupRetention: string;
  };
  logLevel: string;
}

/** The platform's own name on every object (app.kubernetes.io/part-of) and the prefix of every name. */
export const PART_OF = 'qris';
export const IMAGE = 'qris-merchant-platform';
export const POSTGRES_CLUSTER = 'qris-postgres';
/** The secret an operator creates with the platform's secrets, one key each (docs/operations.md, Kubernetes). */
export const APP_SECRET = 'qris-secrets';
/** Where secrets are mounted as files; each process reads `<NAME>_FILE` (lib/config). */
export const SECRETS_DIR = '/run/secrets/qris';
/**
 * The keys of APP_SECRET every app process reads as files: the secrets lib/config knows, less the admin URL (the
 * migration Job's alone, from CloudNativePG), Redis's URL (no password in-cluster) and the optional provider and
 * webhook credentials (add a key and its `<NAME>_FILE` in an overlay when used).
 */
const NOT_MOUNTED = new Set([
  'DATABASE_URL',
  // Added to the app secret while a secret rotates (docs/operations.md, "Rotating secrets").
  'PRINCIPAL_SECRET_PREVIOUS',
  'SERVICE_TOKEN_SECRET_PREVIOUS',
  'SECRETS_ENCRYPTION_KEY_PREVIOUS',
  'PARTNER_TOKEN_SECRET_PREVIOUS',
  'USER_TOKEN_SECRET_PREVIOUS',
  'REDIS_URL',
  'MESSAGING_PROVIDER_TOKEN',
  'PUSH_PROVIDER_TOKEN',
  'EMAIL_PROVIDER_TOKEN',
  'MESSAGING_WEBHOOK_VERIFY_TOKEN',
  'MESSAGING_WEBHOOK_SECRET',
]);
export const APP_SECRET_KEYS: readonly string[] = SECRET_VARIABLES.filter((name) => !NOT_MOUNTED.has(name));
/** The non-secret settings an operator sets per environment in APP_SETTINGS (provider URLs; tokens are in APP_SECRET). */
export const APP_SETTINGS = 'qris-settings';
/**
 * The migration Job's own secret, key DATABASE_URL: the superuser's URL of the platform's database
 * (postgresql://postgres:<password of qris-postgres-superuser>@qris-postgres-rw:5432/qris); app pods never mount it.
 */
export const MIGRATION_SECRET = 'qris-migration';
export const METRICS_PORT = METRICS_PORT_DEFAULT;
const OTEL_COLLECTOR = 'qris-otel-collector';
const REDIS = 'qris-redis';

export interface ProcessSpec {
  name: ProcessName;
  /** The image's command (Dockerfile, docker-compose.yml). */
  command: string[];
  port: number;
  portVariable: string;
  /** Reached from outside through the Ingress. */
  public: boolean;
  /** How long it may take to start before liveness applies (REST builds four subgraphs' schemas and plans). */
  startupSecs: number;
}

export const PROCESSES: ProcessSpec[] = [
  {
    name: 'rest',
    command: ['node', ...SERVER_NODE_FLAGS, 'dist/rest-adapters/main.js'],
    port: 8080,
    portVariable: 'REST_PORT',
    public: true,
    startupSecs: 120,
  },
  {
    name: 'gateway',
    command: ['node', ...SERVER_NODE_FLAGS, 'dist/gateway/src/main.js'],
    port: 4000,
    portVariable: 'GATEWAY_PORT',
    public: true,
    startupSecs: 60,
  },
  ...SUBGRAPH_NAMES.map((name, i) => ({
    name,
    command: ['node', ...SERVER_NODE_FLAGS, `dist/subgraphs/${name}/src/main.js`],
    port: 4001 + i,
    portVariable: `${name.toUpperCase()}_PORT`,
    public: false,
    startupSecs: 60,
  })),
];
export const MIGRATE_COMMAND = ['sh', '-c', 'node dist/scripts/ops.js db:migrate && node dist/scripts/ops.js seed:reference'];

const resources = (cpu: string, memory: string, cpuLimit: string, memoryLimit: string): IResourceRequirements => ({
  requests: { cpu, memory },
  limits: { cpu: cpuLimit, memory: memoryLimit },
});

/**
 * Production: docs/capacity.md's proposed deployment (three application hosts over zones; 5,000 events/s is about
 * 1.9 cores busy in REST with its in-process subgraphs, 3–4.5 cores at a 60 % target), a PostgreSQL primary of 8
 * cores and 64 GB with two synchronous-capable replicas.
 */
export const PRODUCTION: Environment = {
  name: 'production',
  namespace: 'qris',
  hosts: { rest: 'api.qris.example', gateway: 'graphql.qris.example' },
  tlsSecret: 'qris-tls',
  ingressClass: 'nginx',
  ingressNamespace: 'ingress-nginx',
  monitoringNamespace: 'monitoring',
  cnpgNamespace: 'cnpg-system',
  sizing: {
    rest: { min: 3, max: 12, resources: resources('1500m', '1Gi', '3', '2Gi') },
    gateway: { min: 2, max: 6, resources: resources('250m', '384Mi', '1', '768Mi') },
    merchant: { min: 3, max: 6, resources: resources('250m', '384Mi', '1', '768Mi') },
    outlet: { min: 3, max: 6, resources: resources('250m', '384Mi', '1', '768Mi') },
    transaction: { min: 3, max: 9, resources: resources('500m', '512Mi', '2', '1Gi') },
    catalog: { min: 2, max: 6, resources: resources('250m', '384Mi', '1', '768Mi') },
  },
  zoneSpread: 'DoNotSchedule',
  drainDelayMs: 10_000,
  postgres: {
    instances: 3,
    storage: '1Ti',
    walStorage: '200Gi',
    resources: resources('8', '64Gi', '8', '64Gi'),
    maxConnections: 400,
    backupPath: 's3://qris-backups/postgres',
    backupRetention: '30d',
  },
  logLevel: 'info',
};

/** Staging: the same objects, one or two copies each, a small database (still three instances: failover is tested). */
export const STAGING: Environment = {
  ...PRODUCTION,
  name: 'staging',
  namespace: 'qris-staging',
  hosts: { rest: 'api.staging.qris.example', gateway: 'graphql.staging.qris.example' },
  tlsSecret: 'qris-staging-tls',
  // One or two copies of each; REST larger (it runs the four subgraphs in process).
  sizing: Object.fromEntries(
    PROCESS_NAMES.map((name) => [
      name,
      { min: 1, max: 2, resources: name === 'rest' ? resources('500m', '768Mi', '2', '1536Mi') : resources('100m', '256Mi', '1', '512Mi') },
    ]),
  ) as Record<ProcessName, ProcessSizing>,
  zoneSpread: 'ScheduleAnyway',
  drainDelayMs: 5_000,
  postgres: {
    instances: 3,
    storage: '50Gi',
    walStorage: '10Gi',
    resources: resources('1', '4Gi', '2', '4Gi'),
    maxConnections: 200,
    backupPath: 's3://qris-backups-staging/postgres',
    backupRetention: '7d',
  },
  logLevel: 'info',
};

export const ENVIRONMENTS = [PRODUCTION, STAGING] as const;

const labelsOf = (component: string) => ({ 'app.kubernetes.io/name': component, 'app.kubernetes.io/part-of': PART_OF });
const selectorOf = (component: string) => ({ 'app.kubernetes.io/name': component });
const APP_PODS = { 'app.kubernetes.io/part-of': PART_OF };
const meta = (env: Environment, name: string, component = name) => ({ name, namespace: env.namespace, labels: labelsOf(component) });
const nameOf = (process: ProcessName) => `qris-${process}`;

/**
 * HTTP_REQUEST_TIMEOUT_MS (30 s, the longest a request may take to arrive) after the drain delay, and graphile-worker's
 * 5 s for running jobs: SIGKILL comes only after every in-flight request could finish.
 */
const terminationGraceSecs = (env: Environment) => Math.ceil(env.drainDelayMs / 1000) + 30 + 5;

/** The environment every app container gets: settings as values, secrets as files (lib/config reads `<NAME>_FILE`). */
function appEnvironment(): NonNullable<IContainer['env']> {
  return [
    ...APP_SECRET_KEYS.map((key) => ({ name: `${key}_FILE`, value: `${SECRETS_DIR}/${key}` })),
    { name: 'OTEL_SERVICE_NAME', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" } } },
  ];
}

/**
 * What an operator sets per environment beside the secrets: production refuses to start without the providers that
 * carry one-time passwords (lib/config). The URLs here are placeholders to replace.
 */
function settings(env: Environment): IConfigMap & Manifest {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(env, APP_SETTINGS, 'qris'),
    data: {
      MESSAGING_PROVIDER_URL: 'https://messaging.provider.example/v1/messages',
      EMAIL_PROVIDER_URL: 'https://email.provider.example/v1/send',
      OPERATOR_TOKEN_ISSUER: 'qris-operator',
      OPERATOR_TOKEN_AUDIENCE: 'qris-gateway',
    },
  };
}

function configMap(env: Environment): IConfigMap & Manifest {
  const subgraphUrls = Object.fromEntries(
    PROCESSES.filter((p) => !p.public).map((p) => [`${p.name.toUpperCase()}_SUBGRAPH_URL`, `http://${nameOf(p.name)}:${p.port}/graphql`]),
  );
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: meta(env, 'qris-config', 'qris'),
    data: {
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      LOG_LEVEL: env.logLevel,
      METRICS_PORT: String(METRICS_PORT),
      REDIS_URL: `redis://${REDIS}:6379`,
      GATEWAY_URL: `http://${nameOf('gateway')}:4000/graphql`,
      ...subgraphUrls,
      // The ingress controller is the one proxy in front of REST and the gateway.
      TRUST_PROXY_HOPS: '1',
      // Several REST copies: one bank micro-batch of each kind at a time per copy (docs/operations.md, Scaling).
      BANK_BATCH_IN_FLIGHT: '1',
      DRAIN_DELAY_MS: String(env.drainDelayMs),
      OUTBOUND_ALLOW_CIDRS: 'none',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://${OTEL_COLLECTOR}:4318`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_RESOURCE_ATTRIBUTES: `deployment.environment=${env.name}`,
    },
  };
}

const httpProbe = (path: string, port: number, periodSeconds: number, failureThreshold: number): IProbe => ({
  httpGet: { path, port },
  periodSeconds,
  timeoutSeconds: 2,
  failureThreshold,
});

/** Non-root, no privilege escalation, no capability, a read-only root filesystem (a writable /tmp of its own). */
const CONTAINER_SECURITY: IContainer['securityContext'] = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};
/** The image's `node` user (uid 1000). */
const POD_SECURITY: IPodSpec['securityContext'] = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};

function appPod(containers: IContainer[], extra: Partial<IPodSpec> = {}): IPodSpec {
  return {
    serviceAccountName: 'qris-app',
    automountServiceAccountToken: false,
    securityContext: POD_SECURITY,
    containers,
    volumes: [
      { name: 'secrets', secret: { secretName: APP_SECRET, defaultMode: 0o400 } },
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
    ],
    ...extra,
  };
}

function appContainer(name: string, command: string[], extra: Partial<IContainer>): IContainer {
  return {
    name,
    image: IMAGE,
    command,
    envFrom: [{ configMapRef: { name: 'qris-config' } }, { configMapRef: { name: APP_SETTINGS } }],
    env: appEnvironment(),
    volumeMounts: [
      { name: 'secrets', mountPath: SECRETS_DIR, readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    securityContext: CONTAINER_SECURITY,
    ...extra,
  };
}

function deployment(env: Environment, spec: ProcessSpec): IDeployment & Manifest {
  const name = nameOf(spec.name);
  const sizing = env.sizing[spec.name];
  const spread = (topologyKey: string, whenUnsatisfiable: ITopologySpreadConstraint['whenUnsatisfiable']): ITopologySpreadConstraint => ({
    maxSkew: 1,
    topologyKey,
    whenUnsatisfiable,
    labelSelector: { matchLabels: selectorOf(name) },
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(env, name),
    // No replicas: the HorizontalPodAutoscaler owns the count (an apply would reset it), from `sizing.min` up.
    spec: {
      revisionHistoryLimit: 5,
      selector: { matchLabels: selectorOf(name) },
      // One new copy at a time, never one fewer: the old copies serve until the new one is ready (its migrations applied).
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      progressDeadlineSeconds: 900,
      template: {
        metadata: { labels: labelsOf(name) },
        spec: appPod(
          [
            appContainer(spec.name, spec.command, {
              ports: [
                { name: 'http', containerPort: spec.port },
                { name: 'metrics', containerPort: METRICS_PORT },
              ],
              resources: sizing.resources,
              startupProbe: httpProbe(LIVENESS_PATH, spec.port, 2, spec.startupSecs / 2),
              livenessProbe: httpProbe(LIVENESS_PATH, spec.port, 10, 3),
              readinessProbe: httpProbe(READINESS_PATH, spec.port, 5, 2),
            }),
          ],
          {
            terminationGracePeriodSeconds: terminationGraceSecs(env),
            topologySpreadConstraints: [
              spread('topology.kubernetes.io/zone', env.zoneSpread),
              spread('kubernetes.io/hostname', 'ScheduleAnyway'),
            ],
          },
        ),
      },
    },
  };
}

/** A process's Service, HorizontalPodAutoscaler and PodDisruptionBudget (at most one copy down at a time). */
function processObjects(
  env: Environment,
  spec: ProcessSpec,
): [IService & Manifest, IHorizontalPodAutoscaler & Manifest, IPodDisruptionBudget & Manifest] {
  const name = nameOf(spec.name);
  const sizing = env.sizing[spec.name];
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(env, name),
      spec: { selector: selectorOf(name), ports: [{ name: 'http', port: spec.port, targetPort: 'http' }] },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: meta(env, name),
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        minReplicas: sizing.min,
        maxReplicas: sizing.max,
        // docs/capacity.md sizes the Node services at a 60 % CPU target.
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
        behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(env, name),
      spec: { maxUnavailable: 1, selector: { matchLabels: selectorOf(name) } },
    },
  ];
}

/**
 * The migration: `db:migrate` and `seed:reference` (idempotent) as the database's superuser (MIGRATION_SECRET; it
 * creates the subgraphs' roles and schemas). New copies are not ready before it finished: /readyz waits for this build's
 * migrations, and the rolling update keeps the old copies until then. A finished Job is removed after a day, so
 * that the next release's `kubectl apply` creates it again.
 */
function migrationJob(env: Environment): IJob & Manifest {
  const container = appContainer('migrate', MIGRATE_COMMAND, {
    resources: resources('500m', '512Mi', '2', '1Gi'),
    env: [{ name: 'DATABASE_URL_FILE', value: `${SECRETS_DIR}-migration/DATABASE_URL` }, ...appEnvironment()],
    volumeMounts: [
      { name: 'secrets', mountPath: SECRETS_DIR, readOnly: true },
      { name: 'migration', mountPath: `${SECRETS_DIR}-migration`, readOnly: true },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  });
  const pod = appPod([container], { restartPolicy: 'OnFailure' });
  pod.volumes = [...(pod.volumes ?? []), { name: 'migration', secret: { secretName: MIGRATION_SECRET, defaultMode: 0o400 } }];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta(env, 'qris-migrate'),
    spec: {
      backoffLimit: 6,
      ttlSecondsAfterFinished: 86_400,
      template: { metadata: { labels: labelsOf('qris-migrate') }, spec: pod },
    },
  };
}

function ingress(env: Environment): IIngress & Manifest {
  const rule = (host: string, service: string, port: number): IIngressRule => ({
    host,
    http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: service, port: { number: port } } } }] },
  });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      ...meta(env, 'qris', 'qris'),
      annotations: {
        'nginx.ingress.kubernetes.io/ssl-redirect': 'true',
        // Live event streams stay open up to LIVE_MAX_STREAM_MS (1 h); no buffering of them.
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      },
    },
    spec: {
      ingressClassName: env.ingressClass,
      tls: [{ hosts: [env.hosts.rest, env.hosts.gateway], secretName: env.tlsSecret }],
      rules: [rule(env.hosts.rest, nameOf('rest'), 8080), rule(env.hosts.gateway, nameOf('gateway'), 4000)],
    },
  };
}

const namespaceIs = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });

function policy(
  env: Environment,
  name: string,
  podSelector: Record<string, string>,
  ingressRules: INetworkPolicyIngressRule[],
): INetworkPolicy & Manifest {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta(env, name, 'qris'),
    spec: { podSelector: { matchLabels: podSelector }, policyTypes: ['Ingress'], ingress: ingressRules },
  };
}

/**
 * Who reaches whom: nothing by default; the ingress controller reaches REST and the gateway; REST and the gateway
 * reach the subgraphs; app pods (and the migration) reach PostgreSQL, Redis and the collector; Prometheus reaches the
 * metrics ports; CloudNativePG's operator and the database's own instances reach the database pods.
 */
function networkPolicies(env: Environment): (INetworkPolicy & Manifest)[] {
  const tcp = (port: number): INetworkPolicyPort => ({ protocol: 'TCP', port });
  const fromApps = { podSelector: { matchLabels: APP_PODS } };
  const policies = [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta(env, 'qris-default-deny', 'qris'),
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    } satisfies INetworkPolicy & Manifest,
    ...PROCESSES.filter((p) => p.public).map((p) =>
      policy(env, `${nameOf(p.name)}-from-ingress`, selectorOf(nameOf(p.name)), [
        { from: [namespaceIs(env.ingressNamespace)], ports: [tcp(p.port)] },
      ]),
    ),
    ...PROCESSES.filter((p) => !p.public).map((p) =>
      policy(env, `${nameOf(p.name)}-from-rest-and-gateway`, selectorOf(nameOf(p.name)), [
        {
          from: ['rest', 'gateway'].map((caller) => ({ podSelector: { matchLabels: selectorOf(nameOf(caller as ProcessName)) } })),
          ports: [tcp(p.port)],
        },
      ]),
    ),
    policy(env, 'qris-metrics-from-monitoring', APP_PODS, [{ from: [namespaceIs(env.monitoringNamespace)], ports: [tcp(METRICS_PORT)] }]),
    policy(env, `${REDIS}-from-apps`, selectorOf(REDIS), [{ from: [fromApps], ports: [tcp(6379)] }]),
    policy(env, `${OTEL_COLLECTOR}-from-apps`, selectorOf(OTEL_COLLECTOR), [{ from: [fromApps], ports: [tcp(4317), tcp(4318)] }]),
    policy(env, `${POSTGRES_CLUSTER}-access`, { 'cnpg.io/cluster': POSTGRES_CLUSTER }, [
      { from: [fromApps], ports: [tcp(5432)] },
      // Replication between the instances, and the operator's status and management calls.
      { from: [{ podSelector: { matchLabels: { 'cnpg.io/cluster': POSTGRES_CLUSTER } } }], ports: [tcp(5432), tcp(8000)] },
      { from: [namespaceIs(env.cnpgNamespace)], ports: [tcp(5432), tcp(8000)] },
      { from: [namespaceIs(env.monitoringNamespace)], ports: [tcp(9187)] },
    ]),
  ];
  return policies;
}

/** PostgreSQL by CloudNativePG: instances over zones, one synchronous standby required, backups to object storage. */
function postgresCluster(env: Environment): Manifest[] {
  const pg = env.postgres;
  return [
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: meta(env, POSTGRES_CLUSTER),
      spec: {
        instances: pg.instances,
        // The platform's database; the migration creates a role and a schema per subgraph in it.
        bootstrap: { initdb: { database: 'qris', owner: 'qris' } },
        imageName: 'ghcr.io/cloudnative-pg/postgresql:17.6',
        // The migration Job connects as the superuser (roles and schemas of every subgraph, docs/decisions/0003-data-access.md);
        // CloudNativePG generates its password in qris-postgres-superuser.
        enableSuperuserAccess: true,
        primaryUpdateStrategy: 'unsupervised',
        postgresql: {
          parameters: {
            max_connections: String(pg.maxConnections),
            // Intake plans its key lookups again after each analyse (docs/operations.md): autovacuum stays on.
            autovacuum: 'on',
            max_wal_size: '4GB',
          },
          // A commit waits for one standby: a failover loses no acknowledged event.
          synchronous: { method: 'any', number: 1, dataDurability: 'required' },
        },
        storage: { size: pg.storage },
        walStorage: { size: pg.walStorage },
        resources: pg.resources,
        affinity: { topologyKey: 'topology.kubernetes.io/zone', podAntiAffinityType: 'required' },
        monitoring: { enablePodMonitor: true },
        backup: {
          retentionPolicy: pg.backupRetention,
          barmanObjectStore: {
            destinationPath: pg.backupPath,
            s3Credentials: {
              accessKeyId: { name: 'qris-backup-s3', key: 'ACCESS_KEY_ID' },
              secretAccessKey: { name: 'qris-backup-s3', key: 'ACCESS_SECRET_KEY' },
            },
            wal: { compression: 'gzip' },
            data: { compression: 'gzip' },
          },
        },
      },
    },
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ScheduledBackup',
      metadata: meta(env, `${POSTGRES_CLUSTER}-daily`, POSTGRES_CLUSTER),
      spec: { schedule: '0 0 2 * * *', backupOwnerReference: 'self', cluster: { name: POSTGRES_CLUSTER } },
    },
  ];
}

/**
 * Redis: wake-ups, shared rate-limit counters and cache invalidation, nothing durable (docs/decisions/0010, 0008,
 * 0202): one pod without persistence; an outage degrades (per-copy counters; live streams are woken by PostgreSQL's
 * NOTIFY in REST copies that run the subgraphs) and drops nothing. An operator may point REDIS_URL at a managed Redis instead and delete these objects.
 */
function redis(env: Environment): Manifest[] {
  const pod: IPodSpec = {
    automountServiceAccountToken: false,
    securityContext: { runAsNonRoot: true, runAsUser: 999, runAsGroup: 999, fsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'redis',
        image: 'redis:7.4-alpine',
        args: ['--save', '', '--appendonly', 'no', '--maxmemory', '256mb', '--maxmemory-policy', 'allkeys-lru'],
        ports: [{ name: 'redis', containerPort: 6379 }],
        resources: resources('100m', '128Mi', '1', '384Mi'),
        readinessProbe: { tcpSocket: { port: 6379 }, periodSeconds: 5 },
        livenessProbe: { tcpSocket: { port: 6379 }, periodSeconds: 10 },
        securityContext: CONTAINER_SECURITY,
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
  };
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(env, REDIS),
      spec: { replicas: 1, selector: { matchLabels: selectorOf(REDIS) }, template: { metadata: { labels: labelsOf(REDIS) }, spec: pod } },
    } satisfies IDeployment & Manifest,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(env, REDIS),
      spec: { selector: selectorOf(REDIS), ports: [{ name: 'redis', port: 6379, targetPort: 'redis' }] },
    } satisfies IService & Manifest,
  ];
}

/** The OpenTelemetry collector: OTLP in from every process; metrics are scraped by Prometheus (PodMonitor) instead. */
function otelCollector(env: Environment): Manifest[] {
  const config = {
    receivers: { otlp: { protocols: { grpc: { endpoint: '0.0.0.0:4317' }, http: { endpoint: '0.0.0.0:4318' } } } },
    processors: { batch: {}, memory_limiter: { check_interval: '1s', limit_percentage: 80, spike_limit_percentage: 20 } },
    // Add your tracing backend's exporter here (e.g. otlphttp to Tempo or Jaeger): docs/operations.md, Observability.
    exporters: { debug: { verbosity: 'basic' } },
    service: { pipelines: { traces: { receivers: ['otlp'], processors: ['memory_limiter', 'batch'], exporters: ['debug'] } } },
  };
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(env, OTEL_COLLECTOR),
      data: { 'config.yaml': JSON.stringify(config, null, 2) },
    } satisfies IConfigMap & Manifest,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(env, OTEL_COLLECTOR),
      spec: {
        replicas: 2,
        selector: { matchLabels: selectorOf(OTEL_COLLECTOR) },
        template: {
          metadata: { labels: labelsOf(OTEL_COLLECTOR) },
          spec: {
            automountServiceAccountToken: false,
            securityContext: POD_SECURITY,
            containers: [
              {
                name: 'otel-collector',
                image: 'otel/opentelemetry-collector-contrib:0.120.0',
                args: ['--config=/etc/otelcol/config.yaml'],
                ports: [
                  { name: 'otlp-grpc', containerPort: 4317 },
                  { name: 'otlp-http', containerPort: 4318 },
                ],
                resources: resources('100m', '256Mi', '1', '512Mi'),
                securityContext: CONTAINER_SECURITY,
                volumeMounts: [{ name: 'config', mountPath: '/etc/otelcol', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: OTEL_COLLECTOR } }],
          },
        },
      },
    } satisfies IDeployment & Manifest,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(env, OTEL_COLLECTOR),
      spec: {
        selector: selectorOf(OTEL_COLLECTOR),
        ports: [
          { name: 'otlp-grpc', port: 4317, targetPort: 'otlp-grpc' },
          { name: 'otlp-http', port: 4318, targetPort: 'otlp-http' },
        ],
      },
    } satisfies IService & Manifest,
  ];
}

/** Prometheus Operator: every app pod's internal metrics port, and the alerts docs/operations.md names. */
function monitoring(env: Environment): Manifest[] {
  const rule = (alert: string, expr: string, forDuration: string, severity: string, summary: string) => ({
    alert,
    expr,
    for: forDuration,
    labels: { severity },
    annotations: { summary, runbook_url: 'docs/operations.md' },
  });
  return [
    {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: meta(env, 'qris-apps', 'qris'),
      spec: {
        selector: {
          matchLabels: APP_PODS,
          matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: PROCESSES.map((p) => nameOf(p.name)) }],
        },
        podMetricsEndpoints: [{ port: 'metrics', path: '/metrics', interval: '15s' }],
      },
    },
    {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: meta(env, 'qris-alerts', 'qris'),
      spec: {
        groups: [
          {
            name: 'qris',
            rules: [
              rule(
                'QrisWebhookDeliveriesFailed',
                'sum by (bank_code) (increase(webhook_deliveries_failed_total[15m])) > 0',
                '0m',
                'warning',
                'A bank webhook delivery failed its last automatic attempt (docs/operations.md, Replay a webhook).',
              ),
              rule(
                'QrisJobQueueBacklog',
                'max by (task) (jobs_oldest_ready_age_seconds) > 300',
                '5m',
                'critical',
                'Jobs ready for over 5 minutes: no worker keeps up, or none runs (webhooks, notifications, the bank view).',
              ),
              rule(
                'QrisReadModelsTrailing',
                'sum(jobs_queued{task=~"merchant_profiles|payment_target_merchants|payment_target_outlets", state="ready"}) > 1000',
                '10m',
                'warning',
                'The copies banks read trail the owners (merchant_profiles_applied_total, payment_targets_applied_total): npm run ops -- bank-view:sync.',
              ),
              rule(
                'QrisDatabasePoolWaiting',
                'max by (subgraph, pod) (db_pool_connections{state="waiting"}) > 0',
                '5m',
                'warning',
                'Callers wait for a database connection: raise DB_POOL_MAX within max_connections, or add copies.',
              ),
              rule(
                'QrisServerErrors',
                'sum by (namespace, pod) (rate(http_requests_total{status_code=~"5.."}[5m])) / sum by (namespace, pod) (rate(http_requests_total[5m])) > 0.01',
                '10m',
                'critical',
                'More than 1 % of requests answer 5xx.',
              ),
              rule(
                'QrisTargetDown',
                `up{namespace="${env.namespace}"} == 0`,
                '5m',
                'critical',
                'A process does not answer its metrics scrape.',
              ),
            ],
          },
        ],
      },
    },
  ];
}

function serviceAccount(env: Environment): IServiceAccount & Manifest {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(env, 'qris-app', 'qris'), automountServiceAccountToken: false };
}

/** Every object of `env`, each in its own file (`fileOf`). */
export function manifests(env: Environment): Manifest[] {
  return [
    serviceAccount(env),
    configMap(env),
    settings(env),
    migrationJob(env),
    ...PROCESSES.flatMap((p) => [deployment(env, p), ...processObjects(env, p)]),
    ingress(env),
    ...networkPolicies(env),
    ...postgresCluster(env),
    ...redis(env),
    ...otelCollector(env),
    ...monitoring(env),
  ];
}

/** The file of a manifest in its environment's directory: `<kind>-<name>.yaml`, lower case. */
export const fileOf = (manifest: Manifest): string => `${manifest.kind.toLowerCase()}-${manifest.metadata.name}.yaml`;

/** The environment's kustomization.yaml: every file, the image (set a registry and tag in an overlay of your own). */
export function kustomization(env: Environment, files: string[]): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    namespace: env.namespace,
    resources: ['namespace.yaml', ...files],
    images: [{ name: IMAGE, newName: `registry.example/${IMAGE}`, newTag: '0.1.0' }],
  };
}

export function namespace(env: Environment): Manifest {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: env.namespace, labels: { 'app.kubernetes.io/part-of': PART_OF } } };
}
