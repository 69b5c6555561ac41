#!/usr/bin/env node
'use strict';
/**
 * Offline validation of deploy/observability (no Prometheus, no Grafana, no network).
 *
 *   node tools/validate-observability.js
 *
 * prometheus-rules.yml: the structure of a rules file, strictly (groups → rules, each an alert with
 * alert, expr, for, labels.severity and annotations summary/description/runbook; no unknown key);
 * every expr parsed with @prometheus-io/lezer-promql, the grammar of the Prometheus UI, and
 * rejected if the syntax tree holds an error node; every metric an expr selects is either `up`, a
 * prom-client default or a name written in quotes in libs/ or apps/ *.ts (tests excluded), so an alert
 * cannot outlive the metric it watches; every alert has its entry in the runbook of
 * deploy/k8s/README.md.
 * grafana-dashboard.json: valid against grafana-dashboard.schema.json (the subset of the dashboard
 * model used here), unique panel ids, template variables defined, and every target's expr checked
 * as above once Grafana's variables are substituted.
 *
 * Exits 1 on any error, each on its own line; the last line reads "validate-observability: ok" or
 * "validate-observability: N error(s)".
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const Ajv = require('ajv');
const { parser } = require('@prometheus-io/lezer-promql');
const { Registry, collectDefaultMetrics } = require('prom-client');

const ROOT = path.resolve(__dirname, '..');
const OBS_DIR = path.join(ROOT, 'deploy', 'observability');
const RUNBOOK_FILE = path.join(ROOT, 'deploy', 'k8s', 'README.md');
const RUNBOOK_HEADING = '## Alerts runbook';
const SEVERITIES = ['critical', 'warning', 'info'];
const DURATION = /^([0-9]+(ms|s|m|h|d|w|y))+$/;
const RULE_KEYS = new Set(['alert', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations']);
const GROUP_KEYS = new Set(['name', 'interval', 'rules']);
const ANNOTATIONS = ['summary', 'description', 'runbook'];
/** Series a histogram or summary exposes beside its own name. */
const SERIES_SUFFIXES = ['_bucket', '_sum', '_count'];

// ---------------------------------------------------------------------------------------------
// Metric names

/** prom-client's default metrics, read from prom-client itself so the list follows its version. */
function defaultMetricNames() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const names = registry.getMetricsAsArray().map((m) => m.name);
  registry.clear();
  return names;
}

function listTsFiles(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'test') continue;
      listTsFiles(full, out);
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.spec.ts') &&
      !entry.name.endsWith('.d.ts')
    ) {
      out.push(full);
    }
  }
  return out;
}

/** Every quoted identifier-like string in the libraries' sources: the metric names they register. */
function metricNamesInSources(root = ROOT) {
  const names = new Set();
  for (const file of [...listTsFiles(path.join(root, 'libs')), ...listTsFiles(path.join(root, 'apps'))]) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(['"`])([a-zA-Z_:][a-zA-Z0-9_:]*)\1/g)) names.add(m[2]);
  }
  return names;
}

function knownMetrics(root = ROOT) {
  return new Set(['up', ...defaultMetricNames(), ...metricNamesInSources(root)]);
}

function isKnown(name, known) {
  if (known.has(name)) return true;
  return SERIES_SUFFIXES.some((s) => name.endsWith(s) && known.has(name.slice(0, -s.length)));
}

// ---------------------------------------------------------------------------------------------
// PromQL

/**
 * Parses `expr` with the Prometheus UI's grammar. Returns syntax errors (with the offending text)
 * and the metric names of its vector selectors.
 */
function parsePromQL(expr) {
  const tree = parser.parse(expr);
  const errors = [];
  const metrics = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        const near = expr
          .slice(Math.max(0, node.from - 10), node.to + 10)
          .replace(/\s+/g, ' ')
          .trim();
        errors.push(`syntax error at offset ${node.from} near "${near}"`);
      } else if (
        node.name === 'Identifier' &&
        node.node.parent &&
        node.node.parent.name === 'VectorSelector'
      ) {
        metrics.push(expr.slice(node.from, node.to));
      }
    },
  });
  if (expr.trim() === '') errors.push('empty expression');
  return { errors, metrics };
}

function checkExpr(where, expr, known) {
  const { errors, metrics } = parsePromQL(expr);
  const out = errors.map((e) => `${where}: PromQL ${e}`);
  for (const name of new Set(metrics)) {
    if (!isKnown(name, known))
      out.push(
        `${where}: unknown metric "${name}" (not a default and not defined in libs/ or apps/ sources)`,
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rules

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Alert names mentioned under the runbook heading of deploy/k8s/README.md. */
function runbookAlerts(readme) {
  const at = readme.indexOf(RUNBOOK_HEADING);
  if (at < 0) return null;
  const rest = readme.slice(at + RUNBOOK_HEADING.length);
  const next = rest.search(/\n## /);
  const section = next < 0 ? rest : rest.slice(0, next);
  return new Set([...section.matchAll(/^#{3,4} +`?([A-Za-z0-9]+)`?\s*$/gm)].map((m) => m[1]));
}

/**
 * Errors of a rules file's text. `known`: metric names an expr may use; `runbook`: the README text
 * whose runbook section must name every alert (null to skip).
 */
function validateRules(text, known, runbook) {
  const errors = [];
  let doc;
  try {
    doc = YAML.parse(text, { uniqueKeys: true });
  } catch (error) {
    return [`rules: not valid YAML: ${error.message.split('\n')[0]}`];
  }
  if (!isObject(doc) || !Array.isArray(doc.groups) || doc.groups.length === 0)
    return ['rules: the file must be an object with a non-empty "groups" list'];
  for (const key of Object.keys(doc))
    if (key !== 'groups') errors.push(`rules: unknown top-level key "${key}"`);
  const documented = runbook === null ? null : runbookAlerts(runbook);
  if (runbook !== null && documented === null)
    errors.push(`rules: deploy/k8s/README.md has no "${RUNBOOK_HEADING}" section`);
  const groupNames = new Set();
  const alertNames = new Set();
  doc.groups.forEach((group, gi) => {
    const gw = `rules: groups[${gi}]`;
    if (!isObject(group)) return errors.push(`${gw}: must be an object`);
    for (const key of Object.keys(group))
      if (!GROUP_KEYS.has(key)) errors.push(`${gw}: unknown key "${key}"`);
    if (typeof group.name !== 'string' || group.name === '')
      errors.push(`${gw}: "name" must be a non-empty string`);
    else if (groupNames.has(group.name)) errors.push(`${gw}: group name "${group.name}" is used twice`);
    else groupNames.add(group.name);
    if (
      group.interval !== undefined &&
      !(typeof group.interval === 'string' && DURATION.test(group.interval))
    )
      errors.push(`${gw}: "interval" must be a duration`);
    if (!Array.isArray(group.rules) || group.rules.length === 0)
      return errors.push(`${gw}: "rules" must be a non-empty list`);
    group.rules.forEach((rule, ri) =>
      checkRule(rule, ri, group.name, { errors, alertNames, documented, known }),
    );
  });
  return errors;
}

/** One alerting rule of a group: its keys, name (CamelCase, unique, in the runbook), expr, durations, labels and annotations. */
function checkRule(rule, ri, groupName, c) {
  const { errors } = c;
  const name = isObject(rule) && typeof rule.alert === 'string' ? rule.alert : `rules[${ri}]`;
  const w = `rules: ${groupName}/${name}`;
  if (!isObject(rule)) return errors.push(`${w}: must be an object`);
  for (const key of Object.keys(rule)) if (!RULE_KEYS.has(key)) errors.push(`${w}: unknown key "${key}"`);
  checkAlertName(w, rule.alert, c);
  if (typeof rule.expr !== 'string') errors.push(`${w}: "expr" must be a string`);
  else errors.push(...checkExpr(w, rule.expr, c.known));
  if (typeof rule.for !== 'string' || !DURATION.test(rule.for))
    errors.push(`${w}: "for" must be a duration such as 5m`);
  if (
    rule.keep_firing_for !== undefined &&
    !(typeof rule.keep_firing_for === 'string' && DURATION.test(rule.keep_firing_for))
  )
    errors.push(`${w}: "keep_firing_for" must be a duration`);
  checkRuleLabels(w, rule.labels, errors);
  checkRuleAnnotations(w, rule, errors);
}

function checkAlertName(w, alert, { errors, alertNames, documented }) {
  if (typeof alert !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(alert))
    errors.push(`${w}: "alert" must be a CamelCase name`);
  else if (alertNames.has(alert)) errors.push(`${w}: alert name used twice`);
  else {
    alertNames.add(alert);
    if (documented && !documented.has(alert))
      errors.push(`${w}: no "### ${alert}" entry in the runbook of deploy/k8s/README.md`);
  }
}

function checkRuleLabels(w, labels, errors) {
  if (!isObject(labels)) return errors.push(`${w}: "labels" with a severity is required`);
  if (!SEVERITIES.includes(labels.severity))
    errors.push(`${w}: labels.severity must be one of ${SEVERITIES.join(', ')}`);
  for (const [k, v] of Object.entries(labels))
    if (typeof v !== 'string') errors.push(`${w}: label "${k}" must be a string`);
}

function checkRuleAnnotations(w, rule, errors) {
  if (!isObject(rule.annotations))
    return errors.push(`${w}: "annotations" with ${ANNOTATIONS.join(', ')} is required`);
  for (const a of ANNOTATIONS)
    if (typeof rule.annotations[a] !== 'string' || rule.annotations[a].trim() === '')
      errors.push(`${w}: annotations.${a} is required`);
  if (
    typeof rule.annotations.runbook === 'string' &&
    !rule.annotations.runbook.endsWith(`#${String(rule.alert).toLowerCase()}`)
  ) {
    errors.push(
      `${w}: annotations.runbook must link to deploy/k8s/README.md#${String(rule.alert).toLowerCase()}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Dashboard

const GRAFANA_BUILTINS = new Set([
  '__rate_interval',
  '__interval',
  '__interval_ms',
  '__range',
  '__range_s',
  '__range_ms',
  '__dashboard',
  '__from',
  '__to',
]);

/** Substitutes Grafana variables so the expr is plain PromQL; reports variables nobody defined. */
function substituteVariables(expr, defined) {
  const undefinedVars = [];
  const text = expr.replace(/\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)/g, (_m, a, b, c) => {
    const name = a || b || c;
    if (GRAFANA_BUILTINS.has(name))
      return name.startsWith('__range') || name.startsWith('__interval') || name === '__rate_interval'
        ? '5m'
        : '0';
    if (!defined.has(name)) undefinedVars.push(name);
    return 'var';
  });
  return { text, undefinedVars };
}

function eachPanel(panels, visit) {
  for (const panel of panels || []) {
    visit(panel);
    if (Array.isArray(panel.panels)) eachPanel(panel.panels, visit);
  }
}

/** Errors of a dashboard (parsed JSON) against `schema`, then ids, variables and PromQL. */
function validateDashboard(dashboard, schema, known) {
  const ajv = new Ajv({ allErrors: true, strictSchema: true, strictRequired: false, strictTypes: false });
  const validate = ajv.compile(schema);
  if (!validate(dashboard)) {
    // An if/then/else failure is reported again as 'must match "then" schema': the branch's own errors say it.
    return validate.errors
      .filter((e) => e.keyword !== 'if')
      .map(
        (e) =>
          `dashboard: ${e.instancePath || '/'} ${e.message}${e.params && e.params.additionalProperty ? ` ("${e.params.additionalProperty}")` : ''}`,
      );
  }
  const errors = [];
  const defined = new Set(dashboard.templating.list.map((v) => v.name));
  const ids = new Set();
  eachPanel(dashboard.panels, (panel) => {
    const w = `dashboard: panel ${panel.id} "${panel.title}"`;
    if (ids.has(panel.id)) errors.push(`${w}: panel id used twice`);
    ids.add(panel.id);
    const refIds = new Set();
    for (const target of panel.targets || []) {
      if (refIds.has(target.refId)) errors.push(`${w}: refId ${target.refId} used twice`);
      refIds.add(target.refId);
      const { text, undefinedVars } = substituteVariables(target.expr, defined);
      for (const v of undefinedVars)
        errors.push(`${w} ${target.refId}: variable $${v} is not defined in templating`);
      errors.push(...checkExpr(`${w} ${target.refId}`, text, known));
    }
  });
  for (const variable of dashboard.templating.list) {
    if (variable.type === 'query') {
      const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
      const m = /^label_values\((.*),\s*(\w+)\)$/.exec(query);
      if (!m)
        errors.push(`dashboard: variable ${variable.name}: query must be label_values(<selector>, <label>)`);
      else
        errors.push(
          ...checkExpr(
            `dashboard: variable ${variable.name}`,
            substituteVariables(m[1], defined).text,
            known,
          ),
        );
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------

function run(root = ROOT) {
  const known = knownMetrics(root);
  const readme = fs.readFileSync(RUNBOOK_FILE, 'utf8');
  const errors = [
    ...validateRules(fs.readFileSync(path.join(OBS_DIR, 'prometheus-rules.yml'), 'utf8'), known, readme),
    ...validateDashboard(
      JSON.parse(fs.readFileSync(path.join(OBS_DIR, 'grafana-dashboard.json'), 'utf8')),
      JSON.parse(fs.readFileSync(path.join(OBS_DIR, 'grafana-dashboard.schema.json'), 'utf8')),
      known,
    ),
  ];
  return errors;
}

if (require.main === module) {
  let errors;
  try {
    errors = run();
  } catch (error) {
    errors = [`could not run: ${error.message}`];
  }
  for (const e of errors) console.error(e);
  console.log(
    errors.length === 0 ? 'validate-observability: ok' : `validate-observability: ${errors.length} error(s)`,
  );
  process.exitCode = errors.length === 0 ? 0 : 1;
}

module.exports = {
  validateRules,
  validateDashboard,
  parsePromQL,
  knownMetrics,
  metricNamesInSources,
  substituteVariables,
  run,
};
