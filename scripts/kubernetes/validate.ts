import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { CONFIG_VARIABLES, type Config, ConfigError, SECRET_VARIABLES, loadConfig, secretFileVariable } from '@lib/config/config';
import { LIVENESS_PATH, READINESS_PATH } from '@lib/http/probes';
import {
  APP_SECRET,
  APP_SECRET_KEYS,
  type Manifest,
  METRICS_PORT,
  MIGRATION_SECRET,
  POSTGRES_CLUSTER,
  PROCESSES,
  type ProcessSpec,
} from './manifests';

/**
 * Checks of rendered manifests without a cluster (docs/decisions/0203-compose-and-image-proof.md):
 * - schemas: every built-in kind against the Kubernetes API's schema (kubernetes-models), every custom resource
 *   against its operator's CRD (deploy/kubernetes/crd-schemas/) in strict mode: a field the CRD does not define fails;
 * - drift, as scripts/image-boot.ts checks compose: every variable a container gets is one lib/config reads (or a
 *   secret's `_FILE`, or OTEL_*), every secret file it names is mounted, the config loads in production from exactly
 *   that environment and those files, ports and probe paths are the ones the process serves, its command exists,
 *   every Service, HPA, PDB and URL names something that exists, and every app pod is reachable under the
 *   NetworkPolicies.
 * Returns the problems; none means valid.
 */
export function validateManifests(manifests: Manifest[], root: string): string[] {
  return [...schemaProblems(manifests, root), ...driftProblems(manifests, root)];
}

const where = (m: Manifest) => `${m.kind}/${m.metadata.name}`;

// ---- schemas ----

/** kubernetes-models' module of an apiVersion: `apps/v1` → kubernetes-models/apps/v1, `v1` → kubernetes-models/v1. */
function builtInModel(manifest: Manifest, root: string): { validate(): void } | undefined {
  // The package exports its modules to `import` only; the file itself loads with require (Node 24's require(esm)).
  const modulePath = path.join(root, 'node_modules/kubernetes-models', manifest.apiVersion, `${manifest.kind}.js`);
  let exports: Record<string, new (data: unknown) => { validate(): void }>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one module per kind, loaded by name (ESM, require(esm))
    exports = require(modulePath) as typeof exports;
  } catch {
    return undefined;
  }
  const Model = exports[manifest.kind];
  return Model ? new Model(manifest) : undefined;
}

const compiled = new Map<string, Map<string, ValidateFunction>>();

/** The CRDs of deploy/kubernetes/crd-schemas, by `group/version` and kind (compiled once per root). */
function crdValidators(root: string): Map<string, ValidateFunction> {
  let validators = compiled.get(root);
  if (!validators) compiled.set(root, (validators = compileCrds(root)));
  return validators;
}

function compileCrds(root: string): Map<string, ValidateFunction> {
  // CRD patterns are Go's (RE2): an inline `(?i)` is JavaScript's `i` flag on the whole pattern.
  const regExp = Object.assign(
    (pattern: string, flags: string) =>
      pattern.includes('(?i)') ? new RegExp(pattern.replaceAll('(?i)', ''), `${flags}i`) : new RegExp(pattern, flags),
    { code: 'new RegExp' },
  );
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp } });
  const validators = new Map<string, ValidateFunction>();
  const dir = path.join(root, 'deploy/kubernetes/crd-schemas');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const crd = YAML.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: object } }[] };
    };
    for (const version of crd.spec.versions) {
      validators.set(
        `${crd.spec.group}/${version.name}/${crd.spec.names.kind}`,
        ajv.compile(strictSchema(version.schema.openAPIV3Schema) as object),
      );
    }
  }
  return validators;
}

/**
 * A CRD's structural schema as JSON Schema, strict as kubeconform's `-strict`: an object that lists its properties
 * admits no other (unless it says it keeps unknown fields); int-or-string is either.
 */
function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'properties') result[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, strictSchema(v)]));
    else if (key === 'items' || key === 'additionalProperties' || key === 'not') result[key] = strictSchema(value);
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') result[key] = strictSchema(value);
    else if (!key.startsWith('x-kubernetes-')) result[key] = value;
  }
  if (source['x-kubernetes-int-or-string'] === true) {
    delete result.type;
    result.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (source.properties && source.additionalProperties === undefined && source['x-kubernetes-preserve-unknown-fields'] !== true) {
    result.additionalProperties = false;
  }
  return result;
}

function schemaProblems(manifests: Manifest[], root: string): string[] {
  const problems: string[] = [];
  const crds = crdValidators(root);
  for (const manifest of manifests) {
    const [group, version] = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/') : ['', manifest.apiVersion];
    const crd = crds.get(`${group}/${version}/${manifest.kind}`);
    if (crd) {
      if (!crd(manifest)) {
        problems.push(
          ...(crd.errors ?? []).map((e) => `${where(manifest)}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`),
        );
      }
      continue;
    }
    const model = builtInModel(manifest, root);
    if (!model) {
      problems.push(`${where(manifest)}: no schema for ${manifest.apiVersion} ${manifest.kind} (neither Kubernetes' nor a CRD's)`);
      continue;
    }
    try {
      model.validate();
    } catch (error) {
      problems.push(`${where(manifest)}: ${(error as Error).message}`);
    }
  }
  return problems;
}

// ---- drift ----

/** The parts of a pod's container these checks and the boot proof (scripts/kubernetes-boot.ts) read. */
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
export interface Probe {
  httpGet?: { path: string; port: number | string };
  periodSeconds?: number;
  failureThreshold?: number;
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string } }[];
  terminationGracePeriodSeconds?: number;
}
export interface Workload extends Manifest {
  spec: { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
}

const isWorkload = (m: Manifest): m is Workload => m.kind === 'Deployment' || m.kind === 'Job';
const FILE_SUFFIX = '_FILE';
const CONFIG = new Set(CONFIG_VARIABLES);
const SECRET_FILES = new Set<string>(SECRET_VARIABLES.map(secretFileVariable));
/** What each secret the manifests mount holds (both the operator's: docs/operations.md, Kubernetes). */
const SECRET_KEYS: Record<string, readonly string[]> = { [APP_SECRET]: APP_SECRET_KEYS, [MIGRATION_SECRET]: ['DATABASE_URL'] };

function driftProblems(manifests: Manifest[], root: string): string[] {
  const problems: string[] = [];
  const configMaps = new Map(
    manifests
      .filter((m) => m.kind === 'ConfigMap')
      .map((m) => [m.metadata.name, (m as Manifest & { data?: Record<string, string> }).data ?? {}]),
  );
  const services = manifests.filter((m) => m.kind === 'Service') as (Manifest & {
    spec: { selector: Record<string, string>; ports: { port: number; targetPort: string | number }[] };
  })[];
  const workloads = manifests.filter(isWorkload);
  const podLabels = workloads.map((w) => w.spec.template.metadata?.labels ?? {});
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([k, v]) => labels[k] === v);

  for (const workload of workloads) {
    for (const container of workload.spec.template.spec.containers) {
      if (container.image !== 'qris-merchant-platform') continue;
      const at = `${where(workload)} container ${container.name}`;
      const environment = containerEnvironment(container, configMaps, at, problems);
      problems.push(...commandProblems(container, root, at));
      const files = secretFiles(workload.spec.template.spec, container, environment, at, problems);
      const config = loadWith(environment, files, at, problems);
      const process = PROCESSES.find((p) => p.command.join(' ') === container.command?.join(' '));
      if (process && config) problems.push(...portProblems(process, container, config, at));
    }
  }

  // Services select pods and target their named ports; URLs in the config name Services on their ports.
  for (const service of services) {
    const pods = workloads.filter((w) => matches(service.spec.selector, w.spec.template.metadata?.labels ?? {}));
    if (pods.length === 0) problems.push(`${where(service)}: selects no pod`);
    for (const port of service.spec.ports) {
      const named = pods.some((w) =>
        w.spec.template.spec.containers.some((c) =>
          c.ports?.some((p) => p.name === port.targetPort || p.containerPort === port.targetPort),
        ),
      );
      if (pods.length > 0 && !named) problems.push(`${where(service)}: no selected container has port ${port.targetPort}`);
    }
  }
  for (const [name, data] of configMaps) {
    for (const [key, value] of Object.entries(data)) {
      if (!/^[a-z]+:\/\//.test(value)) continue;
      const url = new URL(value);
      if (url.hostname.includes('.')) continue; // outside the namespace (providers)
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      if (!services.some((s) => s.metadata.name === url.hostname && s.spec.ports.some((p) => p.port === port)))
        problems.push(`ConfigMap/${name}: ${key}=${value} names no Service ${url.hostname} on port ${port}`);
    }
  }
  for (const m of manifests) {
    const spec = m.spec as
      { scaleTargetRef?: { kind: string; name: string }; selector?: { matchLabels?: Record<string, string> } } | undefined;
    if (
      m.kind === 'HorizontalPodAutoscaler' &&
      !workloads.some((w) => w.kind === spec?.scaleTargetRef?.kind && w.metadata.name === spec?.scaleTargetRef?.name)
    )
      problems.push(`${where(m)}: scales ${spec?.scaleTargetRef?.kind}/${spec?.scaleTargetRef?.name}, which is not here`);
    if (m.kind === 'PodDisruptionBudget' && !podLabels.some((labels) => matches(spec?.selector?.matchLabels ?? {}, labels)))
      problems.push(`${where(m)}: selects no pod`);
  }
  problems.push(...reachability(manifests, workloads));
  return problems;
}

/** The container's variables: its ConfigMaps', then its own; each must be one the config reads. */
function containerEnvironment(
  container: Container,
  configMaps: Map<string, Record<string, string>>,
  at: string,
  problems: string[],
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const data = source.configMapRef && configMaps.get(source.configMapRef.name);
    if (!data) problems.push(`${at}: envFrom names ConfigMap ${source.configMapRef?.name}, which is not here`);
    Object.assign(environment, data);
  }
  for (const variable of container.env ?? [])
    if (variable.value !== undefined) environment[variable.name] = variable.value;
    else if (variable.valueFrom) environment[variable.name] = 'from-the-pod';
  for (const name of Object.keys(environment)) {
    if (!CONFIG.has(name) && !SECRET_FILES.has(name) && !name.startsWith('OTEL_'))
      problems.push(`${at}: sets ${name}, which lib/config does not read`);
  }
  return environment;
}

/** `node dist/x.js` (alone or inside `sh -c`): x.ts exists in the source tree (the build writes dist/x.js from it). */
function commandProblems(container: Container, root: string, at: string): string[] {
  const command = (container.command ?? []).join(' ');
  const entries = [...command.matchAll(/\bnode (?:--\S+ )*(dist\/\S+\.js)/g)].map((m) => m[1]);
  if (entries.length === 0) return [`${at}: command ${JSON.stringify(command)} runs no node entry of dist/`];
  return entries
    .filter((entry) => !existsSync(path.join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '.ts'))))
    .map((entry) => `${at}: ${entry} is built from nothing (no ${entry.replace(/^dist\//, '').replace(/\.js$/, '.ts')})`);
}

/** Every `<NAME>_FILE` is under a mounted secret that holds its key; returns the files with stand-in values. */
function secretFiles(
  pod: PodSpec,
  container: Container,
  environment: Record<string, string>,
  at: string,
  problems: string[],
): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, file] of Object.entries(environment)) {
    if (!name.endsWith(FILE_SUFFIX)) continue;
    const mount = container.volumeMounts?.find((m) => path.dirname(file) === m.mountPath);
    const volume = mount && pod.volumes?.find((v) => v.name === mount.name);
    const keys = volume?.secret ? SECRET_KEYS[volume.secret.secretName] : undefined;
    if (!volume?.secret) problems.push(`${at}: ${name}=${file} is in no mounted secret`);
    else if (!keys?.includes(path.basename(file)))
      problems.push(`${at}: ${name}=${file}: secret ${volume.secret.secretName} holds no key ${path.basename(file)}`);
    const secret = name.slice(0, -FILE_SUFFIX.length);
    files.set(
      name,
      /_URL$/.test(secret)
        ? `postgres://role:${randomBytes(12).toString('hex')}@${POSTGRES_CLUSTER}-rw:5432/app`
        : randomBytes(24).toString('hex'),
    );
  }
  return files;
}

/** lib/config in production from exactly this environment, the secret files written with stand-in values. */
function loadWith(environment: Record<string, string>, files: Map<string, string>, at: string, problems: string[]): Config | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-secrets-'));
  try {
    const env: NodeJS.ProcessEnv = { ...environment };
    for (const [name, value] of files) {
      const file = path.join(dir, name);
      writeFileSync(file, `${value}\n`);
      env[name] = file;
    }
    return loadConfig(env);
  } catch (error) {
    problems.push(`${at}: the config does not load: ${error instanceof ConfigError ? error.problems.join('; ') : String(error)}`);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The container's ports are the ones the process listens on; the probes ask its port at the probe paths. */
function portProblems(process: ProcessSpec, container: Container, config: Config, at: string): string[] {
  const problems: string[] = [];
  const http = container.ports?.find((p) => p.name === 'http')?.containerPort;
  const metrics = container.ports?.find((p) => p.name === 'metrics')?.containerPort;
  if (http !== config.ports[process.name])
    problems.push(`${at}: port http ${http}, but the process listens on ${config.ports[process.name]}`);
  if (metrics !== config.ports.metrics || metrics !== METRICS_PORT)
    problems.push(`${at}: port metrics ${metrics}, but METRICS_PORT is ${config.ports.metrics}`);
  const expected: [keyof Container, string][] = [
    ['startupProbe', LIVENESS_PATH],
    ['livenessProbe', LIVENESS_PATH],
    ['readinessProbe', READINESS_PATH],
  ];
  for (const [probe, pathExpected] of expected) {
    const get = (container[probe] as Probe | undefined)?.httpGet;
    if (get?.path !== pathExpected || (get.port !== http && get.port !== 'http'))
      problems.push(`${at}: ${probe} is not GET ${pathExpected} on port ${http}`);
  }
  return problems;
}

/** Under a default deny, each app pod is let in by some policy. */
function reachability(manifests: Manifest[], workloads: Workload[]): string[] {
  const policies = manifests.filter((m) => m.kind === 'NetworkPolicy') as (Manifest & {
    spec: { podSelector: { matchLabels?: Record<string, string> }; ingress?: unknown[] };
  })[];
  const problems: string[] = [];
  for (const workload of workloads.filter((w) => w.kind === 'Deployment')) {
    const labels = workload.spec.template.metadata?.labels ?? {};
    // A policy for this workload by name (the metrics policy, for every app pod, does not count).
    const allowed = policies.some(
      (p) =>
        (p.spec.ingress?.length ?? 0) > 0 &&
        p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === labels['app.kubernetes.io/name'],
    );
    if (!allowed) problems.push(`${where(workload)}: no NetworkPolicy lets anything reach it`);
  }
  return problems;
}
