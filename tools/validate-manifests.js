#!/usr/bin/env node
'use strict';
/**
 * Offline validation of the deployment artefacts (no cluster, no Docker engine, no network).
 *
 *   node tools/validate-manifests.js            # self-test, then deploy/k8s and docker-compose.yml
 *
 * Kubernetes (deploy/k8s):
 *  - every directory with a kustomization.yaml (base and each overlay) is rendered the way
 *    `kubectl kustomize` would, for the subset of Kustomize the tree uses: resources (files and
 *    directories), namespace, images, patches (strategic-merge or JSON 6902, path or inline, with
 *    an optional target). Any other kustomization field is an error, so the rendering never
 *    silently differs from Kustomize's;
 *  - every rendered object is validated against the Kubernetes OpenAPI schema of its
 *    apiVersion/kind (the validators that `kubernetes-models` compiles from the official
 *    OpenAPI document of Kubernetes 1.33), strictly: a field that the schema does not declare is
 *    an error, as with `kubectl apply --validate=strict`;
 *  - then cross-object rules of this project: selectors match pod labels, Services and
 *    probes point at declared ports, HPA targets exist and stay <= KAFKA_PARTITIONS, every
 *    multi-replica app has a PodDisruptionBudget, every app has its Deployment, Service,
 *    ConfigMap and Secret reference, /readyz and /healthz probes, requests and limits, a
 *    non-root read-only container; the relay is one replica with strategy Recreate; only the
 *    gateway is exposed outside the cluster; the gateway's ANALYST_UPSTREAM_* URLs name Services
 *    and ports of the render, analysis and sampling headless ones (team-affine routing);
 *  - every YAML file under deploy/k8s must be reachable from some kustomization (no file escapes
 *    validation).
 * docker-compose.yml: every app service builds from ./Dockerfile with an APP arg naming an app of
 * the distributed topology that exists under apps/, every depends_on target exists (and has a
 * healthcheck when the condition is service_healthy), every service has a healthcheck, images are
 * pinned, only the gateway publishes a port, the apps get the shared configuration.
 *
 * Exits 1 on any error. The last line reads "validate-manifests: N passed, M failed".
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const ROOT = path.resolve(__dirname, '..');
const K8S_DIR = path.join(ROOT, 'deploy', 'k8s');
const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');
/** Apps of the distributed topology: each runs as its own Deployment / compose service. */
const APPS = ['gateway', 'ingest', 'ledger', 'analysis', 'sampling', 'relay', 'notifier'];
const HPA_APPS = ['gateway', 'analysis', 'sampling', 'notifier'];
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

// ---------------------------------------------------------------------------------------------
// Schemas: kubernetes-models ships one AJV-compiled validator per OpenAPI definition.

let schemaDir;
function kubernetesSchemaDir() {
  if (schemaDir) return schemaDir;
  let entry;
  try {
    entry = require.resolve('kubernetes-models');
  } catch {
    throw new Error(
      'the devDependency kubernetes-models is not installed (npm install --save-dev kubernetes-models@4.5.1): ' +
        'it holds the Kubernetes OpenAPI schemas this validator checks against',
    );
  }
  schemaDir = path.join(path.dirname(entry), '_schemas');
  return schemaDir;
}

/**
 * kubernetes-models keeps the schemas of API versions that Kubernetes has since stopped serving
 * (for old clusters); an apiVersion/kind listed here is rejected even though a schema exists.
 * From the Kubernetes deprecated-API migration guide, for the kinds a project like this uses.
 */
const REMOVED_APIS = {
  'extensions/v1beta1': '1.22',
  'apps/v1beta1': '1.16',
  'apps/v1beta2': '1.16',
  'policy/v1beta1': '1.25',
  'batch/v1beta1': '1.25',
  'autoscaling/v2beta1': '1.25',
  'autoscaling/v2beta2': '1.26',
  'networking.k8s.io/v1beta1/Ingress': '1.22',
  'networking.k8s.io/v1beta1/IngressClass': '1.22',
  'rbac.authorization.k8s.io/v1beta1': '1.22',
  'discovery.k8s.io/v1beta1': '1.25',
  'events.k8s.io/v1beta1': '1.25',
  'node.k8s.io/v1beta1': '1.25',
  'scheduling.k8s.io/v1beta1': '1.22',
  'coordination.k8s.io/v1beta1': '1.22',
  'apiextensions.k8s.io/v1beta1': '1.22',
  'storage.k8s.io/v1beta1/CSIStorageCapacity': '1.27',
  'storage.k8s.io/v1beta1/StorageClass': '1.22',
  'storage.k8s.io/v1beta1/VolumeAttachment': '1.22',
  'storage.k8s.io/v1beta1/CSIDriver': '1.22',
  'storage.k8s.io/v1beta1/CSINode': '1.22',
};

const validatorCache = new Map();
/** The compiled schema validator of an apiVersion/kind, or a string saying why there is none. */
function schemaValidator(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (validatorCache.has(key)) return validatorCache.get(key);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  // OpenAPI names: io.k8s.api.<first segment of the group, minus .k8s.io | core>.<version>.<Kind>
  const groupPart = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '').split('.')[0];
  const file = path.join(kubernetesSchemaDir(), `IoK8sApi${cap(groupPart)}${cap(version)}${kind}.js`);
  let result;
  const removedIn = REMOVED_APIS[key] || REMOVED_APIS[apiVersion];
  if (removedIn) {
    result = `apiVersion "${apiVersion}" kind "${kind}" is no longer served since Kubernetes ${removedIn}`;
  } else if (
    !/^[a-z0-9.-]*$/.test(group) ||
    !/^v\d+((alpha|beta)\d+)?$/.test(version) ||
    !/^[A-Z][A-Za-z0-9]*$/.test(kind)
  ) {
    result = `malformed apiVersion/kind "${apiVersion}" "${kind}"`;
  } else if (!fs.existsSync(file)) {
    result = `no Kubernetes schema for apiVersion "${apiVersion}" kind "${kind}" (unknown kind, or a version Kubernetes 1.33 does not serve)`;
  } else {
    result = require(file).validate;
  }
  validatorCache.set(key, result);
  return result;
}

/**
 * Wraps `root` in proxies that record which properties the compiled validator reads. AJV code
 * reads every property its schema declares (and iterates map-like objects), never the others,
 * so a key that was never read in an object the validator visited is a field the schema does
 * not have: the same verdict as `additionalProperties: false` everywhere.
 */
function trackReads(root) {
  const reads = new Map();
  const proxies = new WeakMap();
  const note = (target, key) => {
    let set = reads.get(target);
    if (!set) reads.set(target, (set = new Set()));
    if (key !== undefined) set.add(key);
  };
  const wrap = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (proxies.has(value)) return proxies.get(value);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === 'string') note(target, key);
        return wrap(Reflect.get(target, key, receiver));
      },
      has(target, key) {
        if (typeof key === 'string') note(target, key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        note(target);
        return Reflect.ownKeys(target);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  return { proxy: wrap(root), reads };
}

function unknownFields(root, reads) {
  const found = [];
  const walk = (value, at) => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${at}/${i}`));
    const read = reads.get(value);
    // Not visited: a free-form object (the schema declares no properties) or under an unknown field.
    if (!read) return;
    for (const key of Object.keys(value)) {
      if (read.has(key)) walk(value[key], `${at}/${escapePointer(key)}`);
      else found.push(`${at}/${escapePointer(key)}`);
    }
  };
  walk(root, '');
  return found;
}

const escapePointer = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

function describeAjvError(e) {
  const at = e.instancePath || '/';
  const p = e.params || {};
  switch (e.keyword) {
    case 'required':
      return `${at}: missing required field "${p.missingProperty}"`;
    case 'type':
      return `${at}: must be of type ${p.type}`;
    case 'enum':
      return `${at}: must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'format':
      return `${at}: must match format "${p.format}"`;
    default:
      return `${at}: fails "${e.keyword}" ${JSON.stringify(p)}`;
  }
}

/** Schema errors of one Kubernetes object (empty when valid). */
function validateManifest(obj) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return ['document is not a mapping'];
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string')
    return ['apiVersion and kind must be strings'];
  const validate = schemaValidator(obj.apiVersion, obj.kind);
  if (typeof validate === 'string') return [validate];
  const { proxy, reads } = trackReads(obj);
  const errors = [];
  if (!validate(proxy)) {
    const raw = validate.errors || [];
    // Nullable references compile to oneOf [ref, null]: keep the specific errors, not the wrappers.
    const specific = raw.filter(
      (e) =>
        !['oneOf', 'anyOf'].includes(e.keyword) &&
        !(e.keyword === 'type' && e.params && e.params.type === 'null'),
    );
    for (const e of specific.length ? specific : raw) errors.push(describeAjvError(e));
  }
  for (const at of unknownFields(obj, reads))
    errors.push(`${at}: unknown field (not in the ${obj.apiVersion} ${obj.kind} schema)`);
  if (
    !obj.metadata ||
    (typeof obj.metadata.name !== 'string' && typeof obj.metadata.generateName !== 'string')
  ) {
    errors.push('/metadata: missing required field "name"');
  }
  return [...new Set(errors)];
}

// ---------------------------------------------------------------------------------------------
// YAML

function parseYamlDocuments(text, file, options = {}) {
  // Kubernetes reads manifests as YAML 1.1 (yes/no/on/off are booleans); so does this parse.
  const docs = YAML.parseAllDocuments(text, {
    version: '1.1',
    uniqueKeys: true,
    prettyErrors: true,
    ...options,
  });
  const out = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Kustomize (the subset this tree uses)

const KUSTOMIZATION_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const idOf = (o) =>
  `${o.kind}/${(o.metadata && o.metadata.namespace) || '~'}/${o.metadata && o.metadata.name}`;

/** Renders the kustomization in `dir`. `used` collects every file read (for the orphan check). */
function renderKustomization(dir, used = new Set(), stack = []) {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((f) => path.join(dir, f))
    .find((f) => fs.existsSync(f));
  if (!file) throw new Error(`${rel(dir)}: no kustomization.yaml`);
  if (stack.includes(file)) throw new Error(`${rel(file)}: kustomization cycle`);
  used.add(file);
  const [k] = parseYamlDocuments(fs.readFileSync(file, 'utf8'), rel(file));
  const where = rel(file);
  if (!isMap(k)) throw new Error(`${where}: not a mapping`);
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') {
    throw new Error(`${where}: apiVersion/kind must be kustomize.config.k8s.io/v1beta1 Kustomization`);
  }
  for (const key of Object.keys(k)) {
    if (!KUSTOMIZATION_FIELDS.has(key))
      throw new Error(
        `${where}: field "${key}" is not supported by tools/validate-manifests.js (extend its renderer first)`,
      );
  }
  let objects = [];
  for (const entry of k.resources || []) {
    const target = path.resolve(dir, entry);
    if (!fs.existsSync(target)) throw new Error(`${where}: resource "${entry}" does not exist`);
    if (fs.statSync(target).isDirectory()) {
      objects.push(...renderKustomization(target, used, [...stack, file]));
    } else {
      used.add(target);
      objects.push(
        ...parseYamlDocuments(fs.readFileSync(target, 'utf8'), rel(target)).map((o) => ({ ...o })),
      );
    }
  }
  objects = objects.map(clone);
  for (const [i, patch] of (k.patches || []).entries())
    applyPatch(objects, patch, dir, `${where} patches[${i}]`, used);
  for (const [i, image] of (k.images || []).entries()) applyImage(objects, image, `${where} images[${i}]`);
  if (k.namespace !== undefined) {
    for (const o of objects)
      if (isMap(o) && !CLUSTER_SCOPED.has(o.kind))
        o.metadata = { ...(o.metadata || {}), namespace: k.namespace };
  }
  const seen = new Set();
  for (const o of objects) {
    const id = idOf(o);
    if (seen.has(id)) throw new Error(`${where}: two resources with the id ${id}`);
    seen.add(id);
  }
  return objects;
}

function applyPatch(objects, spec, dir, where, used) {
  if (!isMap(spec)) throw new Error(`${where}: must be a mapping`);
  for (const key of Object.keys(spec))
    if (!['path', 'patch', 'target'].includes(key))
      throw new Error(`${where}: field "${key}" is not supported`);
  let text;
  if (spec.path !== undefined) {
    const file = path.resolve(dir, spec.path);
    if (!fs.existsSync(file)) throw new Error(`${where}: patch file ${spec.path} does not exist`);
    used.add(file);
    text = fs.readFileSync(file, 'utf8');
  } else if (typeof spec.patch === 'string') text = spec.patch;
  else throw new Error(`${where}: needs "path" or "patch"`);
  const docs = parseYamlDocuments(text, where);
  if (docs.length !== 1) throw new Error(`${where}: one patch document expected, found ${docs.length}`);
  const body = docs[0];
  let target = spec.target;
  if (Array.isArray(body)) {
    if (!target) throw new Error(`${where}: a JSON 6902 patch needs a target`);
  } else if (!target) {
    if (!isMap(body) || !body.kind || !body.metadata || !body.metadata.name)
      throw new Error(`${where}: a strategic-merge patch needs kind and metadata.name`);
    target = { kind: body.kind, name: body.metadata.name };
  }
  const matches = objects.filter((o) => matchesTarget(o, target, where));
  if (matches.length === 0)
    throw new Error(`${where}: matches no resource (target ${JSON.stringify(target)})`);
  for (const o of matches) {
    const patched = Array.isArray(body)
      ? applyJson6902(o, body, `${where} on ${idOf(o)}`)
      : strategicMerge(o, body, '', `${where} on ${idOf(o)}`);
    for (const key of Object.keys(o)) delete o[key];
    Object.assign(o, patched);
  }
}

function matchesTarget(o, t, where) {
  for (const key of Object.keys(t)) {
    if (!['group', 'version', 'kind', 'name', 'namespace'].includes(key))
      throw new Error(`${where}: target field "${key}" is not supported`);
  }
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const re = (s) => new RegExp(`^(?:${s})$`); // Kustomize matches target names as anchored regexes
  return (
    (t.kind === undefined || re(t.kind).test(o.kind)) &&
    (t.group === undefined || t.group === group) &&
    (t.version === undefined || t.version === version) &&
    (t.name === undefined || re(t.name).test(o.metadata && o.metadata.name)) &&
    (t.namespace === undefined || t.namespace === (o.metadata && o.metadata.namespace))
  );
}

/** Strategic merge: maps merge, null deletes, lists with a known merge key merge by it, others replace. */
function strategicMerge(base, patch, field, where) {
  if (isMap(patch)) {
    const out = isMap(base) ? clone(base) : {};
    for (const [key, value] of Object.entries(patch)) {
      if (key.startsWith('$')) throw new Error(`${where}: patch directive ${key} is not supported`);
      if (value === null) delete out[key];
      else out[key] = strategicMerge(out[key], value, key, where);
    }
    return out;
  }
  if (Array.isArray(patch) && Array.isArray(base)) {
    const mergeKey = listMergeKey(field, patch.concat(base));
    if (mergeKey) {
      const out = clone(base);
      for (const item of patch) {
        const i = out.findIndex((b) => isMap(b) && b[mergeKey] === item[mergeKey]);
        if (i >= 0) out[i] = strategicMerge(out[i], item, '', where);
        else out.push(clone(item));
      }
      return out;
    }
  }
  return clone(patch);
}

function listMergeKey(field, items) {
  if (!items.every(isMap)) return undefined;
  const byField = {
    containers: 'name',
    initContainers: 'name',
    ephemeralContainers: 'name',
    env: 'name',
    volumes: 'name',
    volumeMounts: 'mountPath',
    imagePullSecrets: 'name',
  };
  if (byField[field]) return byField[field];
  if (field === 'ports')
    return items.every((i) => 'containerPort' in i)
      ? 'containerPort'
      : items.every((i) => 'port' in i)
        ? 'port'
        : undefined;
  return undefined;
}

function applyJson6902(obj, ops, where) {
  const doc = clone(obj);
  const parse = (p) => {
    if (typeof p !== 'string' || !p.startsWith('/'))
      throw new Error(`${where}: bad JSON pointer ${JSON.stringify(p)}`);
    return p
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  };
  const parentOf = (parts, p) => {
    let cur = doc;
    for (const part of parts.slice(0, -1)) {
      cur = Array.isArray(cur) ? cur[Number(part)] : isMap(cur) ? cur[part] : undefined;
      if (cur === undefined) throw new Error(`${where}: path ${p} does not exist`);
    }
    return cur;
  };
  for (const op of ops) {
    if (!isMap(op)) throw new Error(`${where}: an operation must be a mapping`);
    const parts = parse(op.path);
    const parent = parentOf(parts, op.path);
    const last = parts[parts.length - 1];
    const exists = Array.isArray(parent)
      ? Number(last) < parent.length
      : Object.prototype.hasOwnProperty.call(parent, last);
    switch (op.op) {
      case 'add':
        if (Array.isArray(parent))
          parent.splice(last === '-' ? parent.length : Number(last), 0, clone(op.value));
        else parent[last] = clone(op.value);
        break;
      case 'replace':
        if (!exists) throw new Error(`${where}: replace ${op.path}: no such field`);
        parent[Array.isArray(parent) ? Number(last) : last] = clone(op.value);
        break;
      case 'remove':
        if (!exists) throw new Error(`${where}: remove ${op.path}: no such field`);
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'test':
        if (JSON.stringify(parent[last]) !== JSON.stringify(op.value))
          throw new Error(`${where}: test ${op.path} failed`);
        break;
      default:
        throw new Error(`${where}: operation "${op.op}" is not supported`);
    }
  }
  return doc;
}

function podSpecOf(o) {
  if (!isMap(o) || !isMap(o.spec)) return undefined;
  if (o.kind === 'Pod') return o.spec;
  if (o.kind === 'CronJob')
    return (
      o.spec.jobTemplate &&
      o.spec.jobTemplate.spec &&
      o.spec.jobTemplate.spec.template &&
      o.spec.jobTemplate.spec.template.spec
    );
  return o.spec.template && o.spec.template.spec;
}

function splitImage(ref) {
  const at = ref.indexOf('@');
  const digest = at >= 0 ? ref.slice(at) : '';
  const rest = at >= 0 ? ref.slice(0, at) : ref;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/'))
    return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, tag: '', digest };
}

function applyImage(objects, spec, where) {
  if (!isMap(spec) || typeof spec.name !== 'string') throw new Error(`${where}: needs a name`);
  for (const key of Object.keys(spec))
    if (!['name', 'newName', 'newTag', 'digest'].includes(key))
      throw new Error(`${where}: field "${key}" is not supported`);
  let hits = 0;
  for (const o of objects) {
    const pod = podSpecOf(o);
    if (!pod) continue;
    for (const c of [...(pod.containers || []), ...(pod.initContainers || [])]) {
      const img = splitImage(String(c.image));
      if (img.name !== spec.name) continue;
      hits++;
      const name = spec.newName || img.name;
      if (spec.digest) c.image = `${name}@${spec.digest}`;
      else if (spec.newTag !== undefined) c.image = `${name}:${spec.newTag}`;
      else c.image = `${name}${img.tag ? `:${img.tag}` : ''}${img.digest}`;
    }
  }
  if (hits === 0) throw new Error(`${where}: image ${spec.name} is used by no container`);
}

// ---------------------------------------------------------------------------------------------
// Project rules over one rendered set of objects

const labelsMatch = (selector, labels) =>
  isMap(selector) &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels && labels[k] === v);

function checkRendered(objects, name) {
  const r = renderedContext(objects, name);
  for (const w of r.workloads) checkWorkloadRefs(r, w);
  for (const s of r.byKind('Service')) checkService(r, s);
  const partitions = checkCommonConfig(r);
  for (const h of r.byKind('HorizontalPodAutoscaler')) checkAutoscaler(r, h, partitions);
  for (const p of r.byKind('PodDisruptionBudget')) {
    if (
      !r.workloads.some(
        (w) =>
          r.nsOf(w) === r.nsOf(p) &&
          labelsMatch(p.spec.selector && p.spec.selector.matchLabels, r.podLabels(w)),
      )
    )
      r.err(p, 'selector matches no workload');
  }
  for (const app of APPS) checkApp(r, app, partitions);
  checkGatewayUpstreamServices(r);
  return { errors: r.errors, notes: r.notes };
}

/** Upstreams the gateway routes each team of to one replica: their URLs must name a headless Service. */
const TEAM_AFFINE_UPSTREAMS = ['ANALYSIS', 'SAMPLING'];

/**
 * gateway-config's ANALYST_UPSTREAM_* lists: each entry http://<Service>:<port> of a Service in
 * the render with that port; analysis and sampling a headless Service (clusterIP None) that leaves
 * not-ready pods out, or the gateway would see one address and team-affine routing one replica.
 */
function checkGatewayUpstreamServices(r) {
  for (const config of r.objects.filter(
    (o) => o.kind === 'ConfigMap' && o.metadata.name === 'gateway-config',
  )) {
    for (const up of ['INGEST', 'LEDGER', 'NOTIFIER', ...TEAM_AFFINE_UPSTREAMS]) {
      const list = (config.data || {})[`ANALYST_UPSTREAM_${up}`];
      if (!list) {
        r.err(config, `ANALYST_UPSTREAM_${up} is missing`);
        continue;
      }
      for (const entry of list.split(',').map((e) => e.trim())) {
        const m = /^http:\/\/([a-z0-9-]+):(\d+)$/.exec(entry);
        const service = m && r.find('Service', m[1], r.nsOf(config));
        if (!m)
          r.err(config, `ANALYST_UPSTREAM_${up}: ${JSON.stringify(entry)} is not http://<service>:<port>`);
        else if (!service) r.err(config, `ANALYST_UPSTREAM_${up}: no Service ${m[1]}`);
        else if (!(service.spec.ports || []).some((p) => p.port === Number(m[2])))
          r.err(config, `ANALYST_UPSTREAM_${up}: Service ${m[1]} has no port ${m[2]}`);
        else if (
          TEAM_AFFINE_UPSTREAMS.includes(up) &&
          (service.spec.clusterIP !== 'None' || service.spec.publishNotReadyAddresses === true)
        )
          r.err(
            config,
            `ANALYST_UPSTREAM_${up}: Service ${m[1]} must be headless (clusterIP: None, publishNotReadyAddresses false) so the gateway sees every ready pod`,
          );
      }
    }
  }
}

/** One rendered set of objects with its lookups, and the errors and notes found in it so far. */
function renderedContext(objects, name) {
  const errors = [];
  const nsOf = (o) => o.metadata.namespace || '';
  return {
    objects,
    name,
    errors,
    notes: [],
    err: (o, msg) => errors.push(`${name}: ${o ? `${o.kind} ${o.metadata && o.metadata.name}` : ''}: ${msg}`),
    byKind: (kind) => objects.filter((o) => o.kind === kind),
    find: (kind, n, ns) =>
      objects.find((o) => o.kind === kind && o.metadata.name === n && nsOf(o) === (ns || '')),
    workloads: objects.filter((o) => WORKLOAD_KINDS.has(o.kind)),
    nsOf,
    podLabels: (w) => (w.spec.template.metadata && w.spec.template.metadata.labels) || {},
    secretsPresent: objects.some((o) => o.kind === 'Secret'),
  };
}

/** A workload's selector, its probes' named ports and the ConfigMaps and Secrets its containers load. */
function checkWorkloadRefs(r, w) {
  if (!labelsMatch(w.spec.selector && w.spec.selector.matchLabels, r.podLabels(w)))
    r.err(w, 'spec.selector.matchLabels must be non-empty and match the pod template labels');
  const pod = podSpecOf(w);
  for (const c of pod.containers || []) {
    const portNames = new Set((c.ports || []).map((p) => p.name).filter(Boolean));
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      const port = c[probe] && c[probe].httpGet && c[probe].httpGet.port;
      if (typeof port === 'string' && !portNames.has(port))
        r.err(w, `${c.name}.${probe} uses port "${port}" that the container does not declare`);
    }
    for (const from of c.envFrom || []) checkEnvFrom(r, w, from);
  }
}

function checkEnvFrom(r, w, from) {
  if (
    from.configMapRef &&
    !from.configMapRef.optional &&
    !r.find('ConfigMap', from.configMapRef.name, r.nsOf(w))
  )
    r.err(w, `envFrom ConfigMap ${from.configMapRef.name} does not exist`);
  if (from.secretRef && !from.secretRef.optional && !r.find('Secret', from.secretRef.name, r.nsOf(w))) {
    if (r.secretsPresent) r.err(w, `envFrom Secret ${from.secretRef.name} does not exist`);
    else r.notes.push(`${r.name}: Secret ${from.secretRef.name} is created out of band (not in this render)`);
  }
}

/** A Service selects pods, its named target ports exist on them, and only the gateway is exposed. */
function checkService(r, s) {
  const targets = r.workloads.filter(
    (w) => r.nsOf(w) === r.nsOf(s) && labelsMatch(s.spec.selector, r.podLabels(w)),
  );
  if (targets.length === 0) {
    r.err(s, 'selector matches no workload');
    return;
  }
  for (const p of s.spec.ports || []) {
    if (typeof p.targetPort !== 'string') continue;
    const ok = targets.every((w) =>
      podSpecOf(w).containers.some((c) => (c.ports || []).some((cp) => cp.name === p.targetPort)),
    );
    if (!ok) r.err(s, `targetPort "${p.targetPort}" is not a named container port of the selected pods`);
  }
  if (['LoadBalancer', 'NodePort'].includes(s.spec.type) && s.metadata.name !== 'gateway')
    r.err(s, `type ${s.spec.type}: only the gateway is exposed outside the cluster`);
}

/** ConfigMap analyst-common and its KAFKA_PARTITIONS (returned; falsy when missing). */
function checkCommonConfig(r) {
  const common = r.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'analyst-common');
  const partitions = common && Number(common.data && common.data.KAFKA_PARTITIONS);
  if (!common) r.err(null, 'ConfigMap analyst-common is missing');
  else if (!Number.isInteger(partitions) || partitions < 1)
    r.err(common, 'data.KAFKA_PARTITIONS must be a positive integer');
  return partitions;
}

function checkAutoscaler(r, h, partitions) {
  const ref = h.spec.scaleTargetRef;
  if (!r.find(ref.kind, ref.name, r.nsOf(h)))
    r.err(h, `scaleTargetRef ${ref.kind} ${ref.name} does not exist`);
  if ((h.spec.minReplicas || 1) > h.spec.maxReplicas) r.err(h, 'minReplicas > maxReplicas');
  if (partitions && h.spec.maxReplicas > partitions)
    r.err(
      h,
      `maxReplicas ${h.spec.maxReplicas} > KAFKA_PARTITIONS ${partitions}: the extra consumers would sit idle`,
    );
}

/** An app's Deployment with its Service, config, scaling and disruption budget, then its container. */
function checkApp(r, app, partitions) {
  const d = r.objects.find((o) => o.kind === 'Deployment' && o.metadata.name === app);
  if (!d) {
    r.err(null, `Deployment ${app} is missing`);
    return;
  }
  const ns = r.nsOf(d);
  if (!r.find('Service', app, ns)) r.err(d, `Service ${app} is missing`);
  if (!r.find('ConfigMap', `${app}-config`, ns)) r.err(d, `ConfigMap ${app}-config is missing`);
  checkAppReplicas(r, app, d, partitions);
  const pod = podSpecOf(d);
  const c = (pod.containers || []).find((x) => x.name === app);
  if (!c) {
    r.err(d, `no container named ${app}`);
    return;
  }
  checkAppContainer(r, app, d, c);
  checkAppHardening(r, d, pod, c);
}

/** Who owns the replica count (an HPA or spec.replicas), the disruption budget, the relay's single replica. */
function checkAppReplicas(r, app, d, partitions) {
  const ns = r.nsOf(d);
  const hpa = r
    .byKind('HorizontalPodAutoscaler')
    .find(
      (h) =>
        h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === app && r.nsOf(h) === ns,
    );
  if (HPA_APPS.includes(app) && !hpa) r.err(d, 'needs a HorizontalPodAutoscaler');
  if (hpa && d.spec.replicas !== undefined)
    r.err(d, 'spec.replicas is set although an HPA owns the replica count');
  const maxReplicas = hpa ? hpa.spec.maxReplicas : d.spec.replicas === undefined ? 1 : d.spec.replicas;
  const pdb = r
    .byKind('PodDisruptionBudget')
    .find(
      (p) => r.nsOf(p) === ns && labelsMatch(p.spec.selector && p.spec.selector.matchLabels, r.podLabels(d)),
    );
  if (maxReplicas > 1 && !pdb) r.err(d, 'runs more than one replica but has no PodDisruptionBudget');
  if (app === 'relay') {
    if (d.spec.replicas !== 1 || hpa) r.err(d, 'the relay must be exactly one replica (no HPA)');
    if (!d.spec.strategy || d.spec.strategy.type !== 'Recreate')
      r.err(d, 'the relay must use strategy Recreate (never two relays at once)');
  } else if (!hpa && partitions && maxReplicas > partitions) {
    r.err(d, `replicas ${maxReplicas} > KAFKA_PARTITIONS ${partitions}`);
  }
}

/** The app container's image, service env, shared and own config, and probe paths. */
function checkAppContainer(r, app, d, c) {
  const image = splitImage(String(c.image)).name;
  if (image !== `analyst/${app}` && !image.endsWith(`/analyst/${app}`))
    r.err(d, `image ${c.image} is not analyst/${app}`);
  if (!(c.env || []).some((e) => e.name === 'ANALYST_SERVICE' && e.value === app))
    r.err(d, `env ANALYST_SERVICE=${app} is missing`);
  if (!(c.envFrom || []).some((f) => f.configMapRef && f.configMapRef.name === 'analyst-common'))
    r.err(d, 'envFrom analyst-common is missing');
  if (!(c.envFrom || []).some((f) => f.secretRef && f.secretRef.name === `${app}-secrets`))
    r.err(d, `envFrom Secret ${app}-secrets is missing (one Secret per app)`);
  const httpPath = (probe) => c[probe] && c[probe].httpGet && c[probe].httpGet.path;
  if (httpPath('readinessProbe') !== '/readyz') r.err(d, 'readinessProbe must GET /readyz');
  if (httpPath('livenessProbe') !== '/healthz') r.err(d, 'livenessProbe must GET /healthz');
}

/** Resources, the security context, the preStop hook and the grace period. */
function checkAppHardening(r, d, pod, c) {
  const res = c.resources || {};
  for (const kind of ['requests', 'limits'])
    for (const what of ['cpu', 'memory'])
      if (!(res[kind] && res[kind][what] !== undefined)) r.err(d, `resources.${kind}.${what} is missing`);
  const psc = pod.securityContext || {};
  const csc = c.securityContext || {};
  if (psc.runAsNonRoot !== true && csc.runAsNonRoot !== true) r.err(d, 'runAsNonRoot must be true');
  if (csc.readOnlyRootFilesystem !== true) r.err(d, 'readOnlyRootFilesystem must be true');
  if (csc.allowPrivilegeEscalation !== false) r.err(d, 'allowPrivilegeEscalation must be false');
  if (!(c.lifecycle && c.lifecycle.preStop)) r.err(d, 'needs a preStop hook (drain before SIGTERM)');
  const grace = pod.terminationGracePeriodSeconds;
  if (!(grace >= 20 && grace <= 60)) r.err(d, 'terminationGracePeriodSeconds should be about 30');
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

function checkCompose(text, where = 'docker-compose.yml', root = ROOT) {
  const errors = [];
  const err = (msg) => errors.push(`${where}: ${msg}`);
  let compose;
  try {
    compose = parseCompose(text);
  } catch (e) {
    return [`${where}: ${e.message}`];
  }
  const services = (compose && compose.services) || {};
  if (!isMap(services) || Object.keys(services).length === 0) return [`${where}: no services`];
  const c = { err, root, services, appServices: new Map() };
  for (const [name, s] of Object.entries(services)) {
    if (!isMap(s)) {
      err(`service ${name} is not a mapping`);
      continue;
    }
    checkComposeService(c, name, s);
  }
  for (const app of APPS) if (!c.appServices.has(app)) err(`no service builds APP=${app}`);
  checkDependsOnCycles(services, err);
  return errors;
}

/** The one YAML document of a compose file (merge keys allowed, duplicate keys refused). */
function parseCompose(text) {
  const docs = YAML.parseAllDocuments(text, { merge: true, uniqueKeys: true });
  if (docs.length !== 1) throw new Error(`one YAML document expected, found ${docs.length}`);
  if (docs[0].errors.length) throw new Error(docs[0].errors.map((e) => e.message).join('; '));
  return docs[0].toJS({ maxAliasCount: 200 });
}

/** `KEY=value` list or mapping, as a mapping. */
function composeEnvironment(environment) {
  return Array.isArray(environment)
    ? Object.fromEntries(
        environment.map((e) => {
          const i = String(e).indexOf('=');
          return [String(e).slice(0, i), String(e).slice(i + 1)];
        }),
      )
    : environment || {};
}

/** One compose service: its build (an app) or pinned image, healthcheck, ports and depends_on. */
function checkComposeService(c, name, s) {
  const { err } = c;
  if (s.build !== undefined) checkComposeBuild(c, name, s);
  else if (typeof s.image !== 'string') err(`service ${name}: needs an image or a build`);
  if (s.image !== undefined && s.build === undefined) {
    const tag = splitImage(s.image).tag;
    if (!tag || tag === 'latest') err(`service ${name}: image ${s.image} must be pinned to a version tag`);
  }
  if (!isMap(s.healthcheck) || !s.healthcheck.test || s.healthcheck.disable)
    err(`service ${name}: needs a healthcheck`);
  if (
    s.ports !== undefined &&
    c.appServices.get('gateway') !== name &&
    !(s.build && (s.build.args || {}).APP === 'gateway')
  )
    err(`service ${name}: publishes ports; only the gateway is exposed`);
  checkComposeDependsOn(c, name, s);
}

/** A built service: the root Dockerfile with an APP build arg naming an app, and that app's environment. */
function checkComposeBuild(c, name, s) {
  const { err, root } = c;
  const b = typeof s.build === 'string' ? { context: s.build } : s.build;
  if (path.resolve(root, b.context || '.') !== root)
    err(`service ${name}: build.context must be the repository root`);
  if ((b.dockerfile || 'Dockerfile') !== 'Dockerfile') err(`service ${name}: must build from ./Dockerfile`);
  const args = Array.isArray(b.args)
    ? Object.fromEntries(b.args.map((a) => String(a).split('=')))
    : b.args || {};
  const app = args.APP;
  if (!APPS.includes(app)) err(`service ${name}: build arg APP=${app} is not one of ${APPS.join(', ')}`);
  else {
    if (!fs.existsSync(path.join(root, 'apps', app)))
      err(`service ${name}: APP=${app} but apps/${app} does not exist`);
    if (c.appServices.has(app)) err(`APP=${app} is built by both ${c.appServices.get(app)} and ${name}`);
    c.appServices.set(app, name);
  }
  const env = composeEnvironment(s.environment);
  if (env.ANALYST_MODE !== 'distributed') err(`service ${name}: ANALYST_MODE must be distributed`);
  for (const key of [
    'KAFKA_BROKERS',
    'MONGO_URL',
    'EVENTSTORE_URL',
    'ANALYST_INTERNAL_SECRET',
    'KAFKA_PARTITIONS',
  ])
    if (!env[key]) err(`service ${name}: environment ${key} is missing`);
  if (app && env.ANALYST_SERVICE !== undefined && env.ANALYST_SERVICE !== app)
    err(`service ${name}: ANALYST_SERVICE=${env.ANALYST_SERVICE} but APP=${app}`);
  if (app === 'gateway') checkGatewayUpstreams(c, name, env);
}

/** The gateway's admin token and its upstream URLs, each http://<a compose service>:<port>. */
function checkGatewayUpstreams(c, name, env) {
  const { err, services } = c;
  if (!env.ANALYST_ADMIN_TOKEN) err(`service ${name}: environment ANALYST_ADMIN_TOKEN is missing`);
  for (const up of ['INGEST', 'LEDGER', 'ANALYSIS', 'SAMPLING', 'NOTIFIER']) {
    const url = env[`ANALYST_UPSTREAM_${up}`];
    const m = /^http:\/\/([a-z0-9-]+):(\d+)$/.exec(url || '');
    if (!m)
      err(
        `service ${name}: ANALYST_UPSTREAM_${up} must be http://<service>:<port>, is ${JSON.stringify(url)}`,
      );
    else if (!services[m[1]])
      err(`service ${name}: ANALYST_UPSTREAM_${up} points at unknown service ${m[1]}`);
  }
}

/** Each depends_on names a service, with a known condition; service_healthy needs a healthcheck. */
function checkComposeDependsOn(c, name, s) {
  const { err, services } = c;
  const deps =
    s.depends_on === undefined
      ? {}
      : Array.isArray(s.depends_on)
        ? Object.fromEntries(s.depends_on.map((d) => [d, { condition: 'service_started' }]))
        : s.depends_on;
  for (const [dep, spec] of Object.entries(deps)) {
    if (!services[dep]) {
      err(`service ${name}: depends_on ${dep}, which is not a service`);
      continue;
    }
    const condition = (spec && spec.condition) || 'service_started';
    if (!['service_started', 'service_healthy', 'service_completed_successfully'].includes(condition))
      err(`service ${name}: depends_on ${dep}: unknown condition ${condition}`);
    if (condition === 'service_healthy' && !(services[dep] && services[dep].healthcheck))
      err(`service ${name}: depends_on ${dep} service_healthy, but ${dep} has no healthcheck`);
  }
}

/** depends_on must not form a cycle. */
function checkDependsOnCycles(services, err) {
  const state = new Map();
  const visit = (n, trail) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'open') return err(`depends_on cycle: ${[...trail, n].join(' -> ')}`);
    state.set(n, 'open');
    const s = services[n];
    const d =
      s && s.depends_on ? (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on)) : [];
    for (const x of d) if (services[x]) visit(x, [...trail, n]);
    state.set(n, 'done');
  };
  for (const n of Object.keys(services)) visit(n, []);
}

// ---------------------------------------------------------------------------------------------
// Tree walk

const rel = (p) => path.relative(ROOT, p) || '.';

function yamlFilesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFilesUnder(p));
    else if (/\.ya?ml$/.test(entry.name) || entry.name === 'Kustomization') out.push(p);
  }
  return out.sort();
}

function validateTree(report) {
  const files = yamlFilesUnder(K8S_DIR);
  const kustomizationDirs = files
    .filter((f) => /^(kustomization\.ya?ml|Kustomization)$/.test(path.basename(f)))
    .map(path.dirname);
  if (kustomizationDirs.length === 0) report.fail('deploy/k8s: no kustomization.yaml found');
  const used = new Set();
  for (const dir of kustomizationDirs) {
    const name = rel(dir);
    let objects;
    try {
      objects = renderKustomization(dir, used);
    } catch (e) {
      report.fail(`${name}: ${e.message}`);
      continue;
    }
    let schemaErrors = 0;
    for (const o of objects) {
      const errors = validateManifest(o);
      const id = `${name}: ${isMap(o) ? `${o.kind} ${o.metadata && o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata && o.metadata.name}` : '?'}`;
      if (errors.length) {
        schemaErrors++;
        report.fail(`${id}\n    ${errors.join('\n    ')}`);
      } else report.pass();
    }
    if (schemaErrors === 0) {
      const { errors, notes } = checkRendered(objects, name);
      for (const e of errors) report.fail(e);
      if (errors.length === 0) report.pass();
      for (const n of new Set(notes)) report.note(n);
      report.note(`${name}: rendered ${objects.length} objects (${summarize(objects)})`);
    }
  }
  for (const f of files)
    if (!used.has(f)) report.fail(`${rel(f)}: not reachable from any kustomization, so never validated`);
}

const summarize = (objects) => {
  const counts = {};
  for (const o of objects) counts[o.kind] = (counts[o.kind] || 0) + 1;
  return Object.entries(counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
};

// ---------------------------------------------------------------------------------------------
// Self-test: the validator must reject what it exists to reject.

function selfTest(report) {
  const deployment = (spec) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'x', labels: { app: 'x' } },
    spec,
  });
  const template = {
    metadata: { labels: { app: 'x' } },
    spec: { containers: [{ name: 'x', image: 'x:1', resources: { limits: { cpu: '1' } } }] },
  };
  const cases = [
    [
      'a valid Deployment passes',
      deployment({ replicas: 2, selector: { matchLabels: { app: 'x' } }, template }),
      [],
    ],
    [
      'a misspelled field is rejected',
      deployment({ replicaz: 2, selector: { matchLabels: { app: 'x' } }, template }),
      ['/spec/replicaz: unknown field'],
    ],
    [
      'a missing spec.selector is rejected',
      deployment({ replicas: 2, template }),
      ['/spec: missing required field "selector"'],
    ],
    [
      'a misspelled nested field is rejected',
      YAML.parse(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec:\n      containers:\n        - name: x\n          image: x:1\n          readinessProbe: {httpGet: {path: /readyz, prot: 8080}}\n',
      ),
      [
        '/spec/template/spec/containers/0/readinessProbe/httpGet/prot: unknown field',
        '/spec/template/spec/containers/0/readinessProbe/httpGet: missing required field "port"',
      ],
    ],
    [
      'a wrong type is rejected',
      deployment({ replicas: 'two', selector: { matchLabels: { app: 'x' } }, template }),
      ['/spec/replicas: must be of type integer'],
    ],
    [
      'an unknown kind is rejected',
      { apiVersion: 'apps/v1', kind: 'Deploymint', metadata: { name: 'x' } },
      ['no Kubernetes schema'],
    ],
    [
      'a removed API version is rejected',
      { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'x' }, spec: {} },
      ['no longer served since Kubernetes 1.25'],
    ],
  ];
  for (const [title, manifest, expected] of cases) {
    const errors = validateManifest(manifest);
    const ok =
      expected.length === 0 ? errors.length === 0 : expected.every((e) => errors.some((x) => x.includes(e)));
    if (ok) report.pass();
    else
      report.fail(`self-test: ${title}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(errors)}`);
  }
  // Kustomize patch semantics the overlays rely on.
  const merged = strategicMerge(
    deployment({ template }),
    {
      spec: { template: { spec: { containers: [{ name: 'x', resources: { limits: { memory: '1Gi' } } }] } } },
    },
    '',
    'self-test',
  );
  const limits = merged.spec.template.spec.containers[0].resources.limits;
  if (
    merged.spec.template.spec.containers.length === 1 &&
    limits.cpu === '1' &&
    limits.memory === '1Gi' &&
    merged.spec.template.spec.containers[0].image === 'x:1'
  )
    report.pass();
  else
    report.fail(
      `self-test: strategic merge by container name went wrong: ${JSON.stringify(merged.spec.template.spec.containers)}`,
    );
  const replaced = applyJson6902(
    deployment({ replicas: 3 }),
    [{ op: 'replace', path: '/spec/replicas', value: 1 }],
    'self-test',
  );
  if (replaced.spec.replicas === 1) report.pass();
  else report.fail('self-test: JSON 6902 replace went wrong');
  // Compose checks.
  const composeCases = [
    [
      'a depends_on on a missing service is rejected',
      'services:\n  a:\n    image: x:1\n    healthcheck: {test: ["CMD", "true"]}\n    depends_on: [nope]\n',
      'depends_on nope, which is not a service',
    ],
    [
      'an APP outside the app list is rejected',
      'services:\n  a:\n    build: {context: ., args: {APP: web}}\n    healthcheck: {test: ["CMD", "true"]}\n',
      'build arg APP=web is not one of',
    ],
    [
      'an unpinned image is rejected',
      'services:\n  a:\n    image: mongo:latest\n    healthcheck: {test: ["CMD", "true"]}\n',
      'must be pinned',
    ],
  ];
  for (const [title, text, expected] of composeCases) {
    const errors = checkCompose(text, 'self-test');
    if (errors.some((e) => e.includes(expected))) report.pass();
    else report.fail(`self-test: ${title}: expected "${expected}", got ${JSON.stringify(errors)}`);
  }
}

// ---------------------------------------------------------------------------------------------

function main() {
  let passed = 0;
  let failed = 0;
  const report = {
    pass: () => passed++,
    fail: (msg) => {
      failed++;
      console.error(`FAIL ${msg}`);
    },
    note: (msg) => console.log(`  ${msg}`),
  };
  try {
    kubernetesSchemaDir();
  } catch (e) {
    console.error(`validate-manifests: ${e.message}`);
    process.exit(1);
  }
  selfTest(report);
  validateTree(report);
  if (fs.existsSync(COMPOSE_FILE)) {
    const errors = checkCompose(fs.readFileSync(COMPOSE_FILE, 'utf8'));
    for (const e of errors) report.fail(e);
    if (errors.length === 0) report.pass();
  } else report.fail('docker-compose.yml is missing');
  console.log(`validate-manifests: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

module.exports = {
  validateManifest,
  renderKustomization,
  strategicMerge,
  applyJson6902,
  checkRendered,
  checkCompose,
};

if (require.main === module) main();
