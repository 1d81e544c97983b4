import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { projectRoot } from '@lib/config/project-root';
import { type Manifest, PROCESSES, PRODUCTION, STAGING, manifests } from '@scripts/kubernetes/manifests';
import { validateManifests } from '@scripts/kubernetes/validate';

/**
 * The checks `node dist/scripts/kubernetes.js --check` runs in CI (scripts/kubernetes/validate.ts,
 * docs/decisions/0203-compose-and-image-proof.md) pass on both environments and catch what they are for.
 */
const ROOT = projectRoot();
type Edit = (objects: Manifest[]) => void;

const object = (objects: Manifest[], kind: string, name?: string): any =>
  objects.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
const container = (objects: Manifest[], name: string): any => object(objects, 'Deployment', name).spec.template.spec.containers[0];
const problemsAfter = (edit: Edit) => {
  const objects = structuredClone(manifests(PRODUCTION));
  edit(objects);
  return validateManifests(objects, ROOT);
};

describe('Kubernetes manifests, checked without a cluster', () => {
  it.each([PRODUCTION, STAGING])('$name: every object valid and in step with the code', (env) => {
    expect(validateManifests(manifests(env), ROOT)).toEqual([]);
  });

  it('docker-compose.yml runs every process with the manifests’ command (its Node flags included)', () => {
    const compose = YAML.parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { command?: string[] }>;
    };
    for (const process of PROCESSES)
      expect([process.name, compose.services[process.name]?.command]).toEqual([process.name, process.command]);
  });

  it.each<[string, Edit, RegExp]>([
    [
      'an unknown field of a CRD (strict)',
      (o) => (object(o, 'Cluster').spec.instancez = 3),
      /Cluster\/qris-postgres: \/spec must NOT have additional properties/,
    ],
    ['a wrong type in a CRD', (o) => (object(o, 'Cluster').spec.instances = 'three'), /\/spec\/instances must be integer/],
    ['a value outside a CRD enum', (o) => (object(o, 'Cluster').spec.postgresql.synchronous.method = 'all'), /allowed values/],
    ['a Prometheus rule without expr', (o) => delete object(o, 'PrometheusRule').spec.groups[0].rules[0].expr, /required property 'expr'/],
    [
      'a wrong type in a built-in kind',
      (o) => (object(o, 'Deployment', 'qris-rest').spec.revisionHistoryLimit = 'x'),
      /Deployment\/qris-rest: .*must be integer/,
    ],
    ['a missing required field', (o) => delete object(o, 'Deployment', 'qris-rest').spec.selector, /must have required property selector/],
    [
      'a variable lib/config does not read',
      (o) => (object(o, 'ConfigMap', 'qris-config').data.RESTPORT = '1'),
      /sets RESTPORT, which lib\/config does not read/,
    ],
    [
      'a port the process does not listen on',
      (o) => (container(o, 'qris-gateway').ports[0].containerPort = 4100),
      /port http 4100, but the process listens on 4000/,
    ],
    [
      'a probe on the wrong path',
      (o) => (container(o, 'qris-outlet').readinessProbe.httpGet.path = '/health'),
      /readinessProbe is not GET \/readyz/,
    ],
    [
      'a secret file the secret does not hold',
      (o) => container(o, 'qris-rest').env.push({ name: 'REDIS_URL_FILE', value: '/run/secrets/qris/REDIS_URL' }),
      /secret qris-secrets holds no key REDIS_URL/,
    ],
    [
      'a command built from nothing',
      (o) => (container(o, 'qris-catalog').command = ['node', 'dist/subgraphs/catalogue/src/main.js']),
      /built from nothing/,
    ],
    [
      'a config production refuses',
      (o) => delete object(o, 'ConfigMap', 'qris-settings').data.EMAIL_PROVIDER_URL,
      /EMAIL_PROVIDER_URL: must be set in production/,
    ],
    [
      'a URL to a port no Service has',
      (o) => (object(o, 'ConfigMap', 'qris-config').data.OUTLET_SUBGRAPH_URL = 'http://qris-outlet:4009/graphql'),
      /names no Service qris-outlet on port 4009/,
    ],
    [
      'a Deployment no NetworkPolicy admits',
      (o) =>
        o.splice(
          o.findIndex((m) => m.metadata.name === 'qris-rest-from-ingress'),
          1,
        ),
      /Deployment\/qris-rest: no NetworkPolicy lets anything reach it/,
    ],
  ])('catches %s', (_what, edit, expected) => {
    expect(problemsAfter(edit)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });
});
