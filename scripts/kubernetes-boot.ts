import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { request } from 'undici';
import YAML from 'yaml';
import { signOperatorToken } from '@lib/auth/operator-token';
import { SUBGRAPH_NAMES } from '@lib/config/config';
import { projectRoot } from '@lib/config/project-root';
import {
  type Running,
  ProofError,
  dropDatabase,
  imageFolder,
  redisPing,
  reportExits,
  startProvider,
  stopProcess,
  tail,
} from './image-boot';
import { APP_SECRET, APP_SECRET_KEYS, IMAGE, type Manifest, MIGRATION_SECRET, POSTGRES_CLUSTER, PROCESSES } from './kubernetes/manifests';
import type { Probe, Workload } from './kubernetes/validate';

/**
 * `npm run kubernetes:boot` (CI, after the build): the boot proof of the rendered Kubernetes manifests, as
 * scripts/image-boot.ts is the compose file's (docs/operations.md, "Kubernetes"; docs/decisions/0203-compose-and-image-proof.md).
 *
 * 1. The image: the Dockerfile played into a folder, exactly as image-boot does (the same code).
 * 2. The manifests of deploy/kubernetes/<environment> (argument; production by default), as written: every Deployment
 *    and the migration Job whose container runs the platform's image is started from the image folder with its
 *    container's command, the image's ENV and exactly the container's environment: its ConfigMaps (`envFrom`), its
 *    `env` values, `fieldRef`s of the pod's labels and name resolved. Each mounted Secret volume becomes a folder under a
 *    temporary mount root holding one file per key the operator puts in it (docs/operations.md, "Secrets and settings";
 *    fresh random values, the database URLs built as that recipe says), and each `<NAME>_FILE` points at its file there.
 * 3. One machine instead of a cluster, by these mechanical rules (the only departures from the manifests):
 *    - a pod's container port is served at 127.0.0.1 on a port of its own: the app Deployments in name order get
 *      KUBERNETES_BOOT_PORT_BASE (23100) + 10 × their index, + the port's index in the container's `ports`; the
 *      process is told so by HOST=127.0.0.1, its port variable (REST_PORT …) and METRICS_PORT;
 *    - an in-cluster URL `scheme://<service>:<port>` becomes the 127.0.0.1 port its Service's targetPort maps to
 *      (one copy per Deployment, so a Service is its one pod); `qris-postgres-rw` is the machine's PostgreSQL
 *      (KUBERNETES_BOOT_ADMIN_URL), `qris-redis` the machine's Redis (KUBERNETES_BOOT_REDIS) and `qris-otel-collector` a
 *      stand-in collector inside this step (their own pods are not run here);
 *    - a database and roles of its own on that shared server: database qris_kubernetes_boot, DB_ROLE_PREFIX=qriskubeboot
 *      (the Secret's URLs name those roles), and the provider URLs an operator sets in `qris-settings` name the stand-in
 *      provider.
 * 4. The migration Job's command runs to completion first (db:migrate, seed:reference), then every Deployment starts; its
 *    startupProbe must pass within periodSeconds × failureThreshold, then its livenessProbe and readinessProbe answer 200.
 * 5. Requests through every process: `ops` from the image (bank:create, merchant:create, as an operator runs them in a
 *    pod with the migration Job's environment), a signed bank lookup at REST, an operator query at the gateway that
 *    reads all four subgraphs, and each subgraph's /readyz.
 * 6. SIGTERM to every process (each must exit 0 after its drain), then the database, roles and folder are removed.
 */

const ROOT = projectRoot(__dirname);
const started = Date.now();
const env = process.env;
const ENVIRONMENT = process.argv[2] ?? 'production';
const ADMIN_URL = env.KUBERNETES_BOOT_ADMIN_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const REDIS_ADDRESS = env.KUBERNETES_BOOT_REDIS ?? '127.0.0.1:6379';
// Below Linux's ephemeral ports (32768 up): there a connection this step opens to PostgreSQL or Redis could hold the
// port a process is about to listen on (EADDRINUSE, seen in CI at 43120).
const PORT_BASE = Number(env.KUBERNETES_BOOT_PORT_BASE ?? 23100);
const DATABASE = 'qris_kubernetes_boot';
const ROLE_PREFIX = 'qriskubeboot';
const KEEP = env.KUBERNETES_BOOT_KEEP === '1';

const log = (line: string) =>
  process.stdout.write(`kubernetes-boot ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${line}\n`);
function fail(message: string): never {
  throw new ProofError(message);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Service extends Manifest {
  spec: { selector: Record<string, string>; ports: { port: number; targetPort: number | string }[] };
}

/** What the operator puts in each Secret (docs/operations.md, "Secrets and settings"), for this step's database. */
function secretValues(admin: URL): Record<string, Record<string, string>> {
  const password = randomBytes(16).toString('hex');
  const app: Record<string, string> = {};
  for (const key of APP_SECRET_KEYS) {
    const subgraph = SUBGRAPH_NAMES.find((name) => key === `${name.toUpperCase()}_DATABASE_URL`);
    if (subgraph) app[key] = `postgres://${ROLE_PREFIX}_${subgraph}:${password}@${POSTGRES_CLUSTER}-rw:5432/${DATABASE}`;
    else if (key === 'DB_ROLE_PASSWORD') app[key] = password;
    else if (/_URL$/.test(key)) fail(`the app secret holds ${key}; kubernetes-boot does not know what to put there`);
    else app[key] = randomBytes(32).toString('hex');
  }
  const superuser = `${admin.username}${admin.password ? `:${admin.password}` : ''}`;
  return { [APP_SECRET]: app, [MIGRATION_SECRET]: { DATABASE_URL: `postgres://${superuser}@${POSTGRES_CLUSTER}-rw:5432/${DATABASE}` } };
}

async function main(): Promise<void> {
  const dir = path.join(ROOT, 'deploy/kubernetes', ENVIRONMENT);
  const manifests = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort()
    .map((f) => YAML.parse(readFileSync(path.join(dir, f), 'utf8')) as Manifest);
  const work = mkdtempSync(path.join(os.tmpdir(), 'qris-kubernetes-boot-'));
  const running: Running[] = [];
  const provider = await startProvider();
  const admin = new URL(ADMIN_URL);
  let adminClient: Client | undefined;
  let prepared = false;
  try {
    const image = await imageFolder(work);
    log(`image folder ${image.dir}; ENV ${JSON.stringify(image.env)}`);

    // The manifests: ConfigMaps, Services, and the workloads that run the platform's image.
    const configMaps = new Map(
      manifests.filter((m) => m.kind === 'ConfigMap').map((m) => [m.metadata.name, (m as { data?: Record<string, string> }).data ?? {}]),
    );
    const services = manifests.filter((m) => m.kind === 'Service') as Service[];
    const workloads = (manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job') as Workload[]).filter((w) =>
      w.spec.template.spec.containers.some((c) => c.image === IMAGE),
    );
    const deployments = workloads.filter((w) => w.kind === 'Deployment').sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const jobs = workloads.filter((w) => w.kind === 'Job');
    if (jobs.length !== 1) fail(`expected one Job running the image (the migration), found ${jobs.map((j) => j.metadata.name).join(', ')}`);
    const containerOf = (w: Workload) => {
      const containers = w.spec.template.spec.containers.filter((c) => c.image === IMAGE);
      if (containers.length !== 1) fail(`${w.kind}/${w.metadata.name}: expected one container of the image`);
      return containers[0];
    };

    // Ports: each Deployment's container ports on 127.0.0.1 (rule above), and where each Service's ports lead.
    const local = new Map<string, Map<number, number>>(); // deployment → container port → local port
    deployments.forEach((d, index) => {
      const ports = containerOf(d).ports ?? [];
      local.set(d.metadata.name, new Map(ports.map((p, k) => [p.containerPort, PORT_BASE + 10 * index + k])));
    });
    const endpoint = new Map<string, string>(); // `service:port` → host:port
    const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    for (const service of services) {
      const pods = deployments.filter((d) => matches(service.spec.selector, d.spec.template.metadata?.labels));
      if (pods.length === 0) continue; // qris-redis, qris-otel-collector: stand-ins below
      if (pods.length > 1) fail(`Service/${service.metadata.name} selects ${pods.length} Deployments`);
      const container = containerOf(pods[0]);
      for (const { port, targetPort } of service.spec.ports) {
        const target = container.ports?.find((p) => p.name === targetPort || p.containerPort === targetPort);
        if (!target) fail(`Service/${service.metadata.name}: ${pods[0].metadata.name} has no port ${targetPort}`);
        endpoint.set(`${service.metadata.name}:${port}`, `127.0.0.1:${local.get(pods[0].metadata.name)!.get(target.containerPort)}`);
      }
    }
    const standIn: Record<string, string> = {
      [`${POSTGRES_CLUSTER}-rw`]: admin.host,
      'qris-redis': REDIS_ADDRESS,
      'qris-otel-collector': new URL(provider.url).host,
    };
    for (const service of services.filter((s) => standIn[s.metadata.name]))
      for (const { port } of service.spec.ports) endpoint.set(`${service.metadata.name}:${port}`, standIn[service.metadata.name]);
    endpoint.set(`${POSTGRES_CLUSTER}-rw:5432`, admin.host); // CloudNativePG's Service of the Cluster

    const translate = (value: string, at: string): string => {
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
      const url = new URL(value);
      if (url.hostname.includes('.') || url.hostname === 'localhost') return value; // outside the cluster
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      const to = endpoint.get(`${url.hostname}:${port}`) ?? fail(`${at}: ${value} names no Service port of these manifests`);
      url.host = to;
      return url.toString().replace(/\/$/, value.endsWith('/') ? '/' : '');
    };

    // Secrets as files under the mount root; the containers' environments.
    const mountRoot = path.join(work, 'mounts');
    const secrets = secretValues(admin);
    const environmentOf = (w: Workload): Record<string, string> => {
      const container = containerOf(w);
      const at = `${w.kind}/${w.metadata.name}`;
      const result: Record<string, string> = {};
      for (const source of container.envFrom ?? []) {
        const data = source.configMapRef ? configMaps.get(source.configMapRef.name) : undefined;
        if (!data) fail(`${at}: envFrom ${JSON.stringify(source)} names no ConfigMap here`);
        Object.assign(result, data);
      }
      const labels = w.spec.template.metadata?.labels ?? {};
      for (const variable of container.env ?? []) {
        if (variable.value !== undefined) result[variable.name] = variable.value;
        else {
          const field =
            variable.valueFrom?.fieldRef?.fieldPath ?? fail(`${at}: ${variable.name}: only values and fieldRefs are known here`);
          const label = /^metadata\.labels\['(.+)'\]$/.exec(field)?.[1];
          result[variable.name] =
            label !== undefined
              ? (labels[label] ?? fail(`${at}: ${variable.name}: the pod has no label ${label}`))
              : fail(`${at}: fieldRef ${field}`);
        }
      }
      // Mounted secrets: every key a file; `<NAME>_FILE` must point into a mounted secret.
      for (const mount of container.volumeMounts ?? []) {
        const volume = w.spec.template.spec.volumes?.find((v) => v.name === mount.name);
        if (!volume?.secret) continue;
        const values =
          secrets[volume.secret.secretName] ?? fail(`${at}: mounts secret ${volume.secret.secretName}, which the docs do not describe`);
        const folder = path.join(mountRoot, mount.mountPath);
        mkdirSync(folder, { recursive: true });
        for (const [key, value] of Object.entries(values))
          writeFileSync(path.join(folder, key), translate(value, `${at} secret ${volume.secret.secretName} key ${key}`), { mode: 0o400 });
      }
      for (const [name, value] of Object.entries(result)) {
        if (name.endsWith('_FILE')) {
          const mounted = (container.volumeMounts ?? []).some((m) => value.startsWith(`${m.mountPath}/`));
          if (!mounted) fail(`${at}: ${name}=${value} is in no mounted volume`);
          result[name] = path.join(mountRoot, value);
        } else result[name] = translate(value, `${at} ${name}`);
      }
      return result;
    };

    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
    const departures = (w: Workload): Record<string, string> => {
      const common = {
        DB_ROLE_PREFIX: ROLE_PREFIX,
        MESSAGING_PROVIDER_URL: `${provider.url}/messaging`,
        EMAIL_PROVIDER_URL: `${provider.url}/email`,
        LOG_LEVEL: 'warn',
      };
      if (w.kind !== 'Deployment') return common;
      const container = containerOf(w);
      const spec =
        PROCESSES.find((p) => p.command.join(' ') === container.command?.join(' ')) ?? fail(`${w.metadata.name}: unknown command`);
      const ports = local.get(w.metadata.name)!;
      const http = container.ports?.find((p) => p.name === 'http')?.containerPort ?? fail(`${w.metadata.name}: no port named http`);
      const metrics =
        container.ports?.find((p) => p.name === 'metrics')?.containerPort ?? fail(`${w.metadata.name}: no port named metrics`);
      return { ...common, HOST: '127.0.0.1', [spec.portVariable]: String(ports.get(http)), METRICS_PORT: String(ports.get(metrics)) };
    };
    const processEnv = (w: Workload): Record<string, string> => ({
      PATH,
      HOME: os.tmpdir(),
      ...image.env,
      ...environmentOf(w),
      ...departures(w),
    });
    const launch = (w: Workload, argv: string[] = []) => {
      const container = containerOf(w);
      const command = [...(container.command ?? fail(`${w.metadata.name}: no command`)), ...(container.args ?? []), ...argv];
      const logFile = path.join(work, `${w.metadata.name}.log`);
      const fd = openSync(logFile, 'w');
      const child = spawn(command[0], command.slice(1), { cwd: image.dir, env: processEnv(w), stdio: ['ignore', fd, fd] });
      closeSync(fd);
      const entry: Running = { name: w.metadata.name, child, logFile };
      child.on('exit', (code) => (entry.exited = code));
      return entry;
    };

    // A database of our own on the machine's server; Redis answers.
    adminClient = new Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    await dropDatabase(adminClient, DATABASE, ROLE_PREFIX);
    prepared = true;
    await adminClient.query(`create database ${DATABASE}`);
    await redisPing(REDIS_ADDRESS);

    // 4. The migration Job, then the Deployments.
    const [job] = jobs;
    const migration = launch(job);
    while (migration.exited === undefined) await sleep(100);
    if (migration.exited !== 0) fail(`Job/${job.metadata.name} exited ${migration.exited}\n${tail(migration.logFile)}`);
    log(`Job/${job.metadata.name} completed: ${containerOf(job).command?.join(' ')}`);

    const probeUrl = (w: Workload, probe: Probe, what: string) => {
      const get = probe.httpGet ?? fail(`${w.metadata.name}: ${what} is not an httpGet`);
      const container = containerOf(w);
      const port = typeof get.port === 'number' ? get.port : container.ports?.find((p) => p.name === get.port)?.containerPort;
      const localPort =
        local.get(w.metadata.name)!.get(port ?? -1) ?? fail(`${w.metadata.name}: ${what} asks port ${get.port}, not a container port`);
      return `http://127.0.0.1:${localPort}${get.path}`;
    };
    const status = async (url: string) => {
      try {
        const { statusCode, body } = await request(url, { headersTimeout: 2000, bodyTimeout: 2000 });
        await body.dump();
        return statusCode;
      } catch {
        return 0;
      }
    };
    await Promise.all(
      deployments.map(async (d) => {
        const entry = launch(d);
        running.push(entry);
        const container = containerOf(d);
        const startup = container.startupProbe ?? fail(`${d.metadata.name}: no startupProbe`);
        const limitMs = (startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3) * 1000;
        const url = probeUrl(d, startup, 'startupProbe');
        const since = Date.now();
        while ((await status(url)) !== 200) {
          if (entry.exited !== undefined)
            fail(`${d.metadata.name} exited ${entry.exited} before its startupProbe passed\n${tail(entry.logFile)}`);
          if (Date.now() - since > limitMs)
            fail(`${d.metadata.name}: startupProbe not passed within ${limitMs / 1000} s\n${tail(entry.logFile)}`);
          await sleep(500);
        }
        for (const [what, probe] of [
          ['livenessProbe', container.livenessProbe],
          ['readinessProbe', container.readinessProbe],
        ] as const) {
          const probed = probeUrl(d, probe ?? fail(`${d.metadata.name}: no ${what}`), what);
          // Readiness may trail startup by a moment (the database check's first connection).
          let answer = 0;
          for (let attempt = 0; attempt < 10 && (answer = await status(probed)) !== 200; attempt++) await sleep(500);
          if (answer !== 200) fail(`${d.metadata.name}: ${what} ${probed} answered ${answer}\n${tail(entry.logFile)}`);
        }
        log(
          `Deployment/${d.metadata.name} started (${container.command?.join(' ')}), startup, liveness and readiness probes 200 after ${((Date.now() - since) / 1000).toFixed(1)} s`,
        );
      }),
    );

    // 5. Requests through every process.
    const ops = async (...args: string[]) => {
      const child = spawn('node', ['dist/scripts/ops.js', ...args], { cwd: image.dir, env: processEnv(job) });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      if (code !== 0) fail(`ops ${args.join(' ')} exited ${code}: ${err}`);
      return (JSON.parse(out) as { result: any }).result;
    };
    const bank = await ops('bank:create', '--code', 'BKUBEBOOT', '--name', 'Kubernetes Boot Bank');
    const nmid = 'ID1026119900001';
    const merchant = await ops('merchant:create', '--name', 'Warung Kubernetes Boot', '--bank', 'BKUBEBOOT', '--nmid', nmid);
    log(`ops from the image with the Job's environment: bank ${bank.bank_code}, merchant ${merchant.merchant_code}`);

    const viaIngress = { 'x-forwarded-for': '203.0.113.7' }; // what the ingress controller adds (TRUST_PROXY_HOPS=1)
    const restBase = `http://${endpoint.get('qris-rest:8080') ?? fail('no Service qris-rest on 8080')}`;
    const lookupPath = `/api/psp/v1/merchants/by-nmid/${nmid}`;
    const timestamp = new Date().toISOString();
    const signature = createHmac('sha256', bank.lookup_secret).update(`GET\n${lookupPath}\n${timestamp}\n`).digest('hex');
    const lookup = await request(`${restBase}${lookupPath}`, {
      headers: { ...viaIngress, 'x-api-key-id': bank.lookup_key_id, 'x-timestamp': timestamp, 'x-signature': signature },
    });
    const lookupBody = await lookup.body.text();
    if (lookup.statusCode !== 200 || !lookupBody.includes(`"nmid":"${nmid}"`) || !lookupBody.includes('"bank_code":"BKUBEBOOT"'))
      fail(`signed bank lookup at REST: ${lookup.statusCode} ${lookupBody.slice(0, 300)}`);
    log(`signed bank lookup at REST answered the merchant (${lookupPath})`);

    const gatewayBase = `http://${endpoint.get('qris-gateway:4000') ?? fail('no Service qris-gateway on 4000')}`;
    const gatewayEnv = processEnv(deployments.find((d) => d.metadata.name === 'qris-gateway') ?? fail('no Deployment qris-gateway'));
    const token = await signOperatorToken(
      { name: 'kubernetes-boot', roles: ['admin'], ttlSecs: 300 },
      {
        secret: readFileSync(gatewayEnv.OPERATOR_TOKEN_SECRET_FILE, 'utf8'),
        issuer: gatewayEnv.OPERATOR_TOKEN_ISSUER,
        audience: gatewayEnv.OPERATOR_TOKEN_AUDIENCE,
      },
    );
    const query = `{ merchantSearch(query: "${merchant.merchant_code}", first: 5) { items { merchantCode outlets { nmid } latestTransactions(last: 1) { status } posCategories { id } } } }`;
    const answer = await request(`${gatewayBase}/graphql`, {
      method: 'POST',
      headers: { ...viaIngress, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    const result = (await answer.body.json()) as any;
    const item = result.data?.merchantSearch?.items?.[0];
    if (answer.statusCode !== 200 || result.errors || item?.merchantCode !== merchant.merchant_code || item.outlets?.[0]?.nmid !== nmid)
      fail(`operator query at the gateway: ${answer.statusCode} ${JSON.stringify(result)}`);
    if (!Array.isArray(item.latestTransactions) || !Array.isArray(item.posCategories)) fail(`operator query: ${JSON.stringify(result)}`);
    log('operator query at the gateway read merchant, outlet, transaction and catalog');

    for (const name of SUBGRAPH_NAMES) {
      const base = endpoint.get(`qris-${name}:${PROCESSES.find((p) => p.name === name)!.port}`) ?? fail(`no Service qris-${name}`);
      const ready = await request(`http://${base}/readyz`);
      const body = await ready.body.text();
      if (ready.statusCode !== 200 || !body.includes('"status":"ok"')) fail(`qris-${name} /readyz: ${ready.statusCode} ${body}`);
    }
    log(`/readyz of every subgraph through its Service: ${SUBGRAPH_NAMES.join(', ')}`);

    for (const r of running) if (r.exited !== undefined) fail(`${r.name} exited (${r.exited})\n${tail(r.logFile)}`);
    // As the kubelet stops a pod: SIGTERM, SIGKILL after terminationGracePeriodSeconds (the drain delay is within it).
    const stopping = Date.now();
    await Promise.all(
      running.map((r) => {
        const grace = (deployments.find((d) => d.metadata.name === r.name)?.spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000;
        return stopProcess(r, grace);
      }),
    );
    const unclean = running.filter((r) => r.exited !== 0);
    if (unclean.length > 0)
      fail(`not stopped cleanly by SIGTERM: ${unclean.map((r) => `${r.name} (${r.exited})\n${tail(r.logFile)}`).join('\n')}`);
    log(
      `SIGTERM: every process drained and exited 0 in ${((Date.now() - stopping) / 1000).toFixed(1)} s (DRAIN_DELAY_MS ${configMaps.get('qris-config')?.DRAIN_DELAY_MS})`,
    );
  } catch (error) {
    reportExits(running);
    throw error;
  } finally {
    await Promise.all(running.map((r) => stopProcess(r)));
    provider.server.close();
    if (adminClient) {
      if (prepared) await dropDatabase(adminClient, DATABASE, ROLE_PREFIX);
      await adminClient.end();
    }
    if (KEEP) log(`kept ${work}`);
    else if (spawnSync('rm', ['-rf', work]).status !== 0) rmSync(work, { recursive: true, force: true });
  }
  log(
    `passed: every Deployment of deploy/kubernetes/${ENVIRONMENT} boots from the image layout with its manifest's command, environment and secret files`,
  );
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(
      `kubernetes-boot failed after ${((Date.now() - started) / 1000).toFixed(1)} s: ${error instanceof ProofError ? error.message : error.stack}\n`,
    );
    process.exit(1);
  });
}
