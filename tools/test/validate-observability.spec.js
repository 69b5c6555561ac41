/* global describe, it, expect */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { validateRules, validateDashboard, knownMetrics, parsePromQL, run } = require('../validate-observability');

const OBS = path.join(__dirname, '..', '..', 'deploy', 'observability');
const known = knownMetrics();
const RUNBOOK = '# x\n\n## Alerts runbook\n\n### GoodAlert\ntext\n\n### BadPromQL\n\n### UnknownMetric\n\n### NoSeverity\n\n## Next\n### NotCounted\n';

function rule(alert, expr, extra = {}) {
  return [
    `      - alert: ${alert}`,
    `        expr: ${expr}`,
    '        for: 5m',
    ...(extra.noSeverity ? ['        labels:', '          team: sre'] : ['        labels:', '          severity: warning']),
    '        annotations:',
    '          summary: s',
    '          description: d',
    `          runbook: "deploy/k8s/README.md#${alert.toLowerCase()}"`,
  ].join('\n');
}

function rulesFile(...rules) {
  return ['groups:', '  - name: test', '    rules:', ...rules].join('\n') + '\n';
}

describe('validate-observability', () => {
  it('passes the committed rules and dashboard', () => {
    expect(run()).toEqual([]);
  });

  it('knows prom-client defaults, up, and the metrics registered in libs, and nothing invented', () => {
    for (const name of ['up', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds', 'http_requests_total', 'analyst_ledger_open_reservations', 'analyst_content_jobs']) {
      expect(known.has(name)).toBe(true);
    }
    expect(known.has('analyst_made_up_total')).toBe(false);
  });

  it('reports a broken rule: bad PromQL, an unknown metric, a missing severity, each exactly', () => {
    const text = rulesFile(
      rule('GoodAlert', 'max(analyst_ledger_open_reservations) > 10'),
      rule('BadPromQL', '"sum(rate(http_requests_total[5m]) > 1"'),
      rule('UnknownMetric', 'sum(rate(analyst_made_up_total[5m])) > 0'),
      rule('NoSeverity', 'http_request_duration_seconds_bucket > 0', { noSeverity: true }),
      rule('NotCounted', 'up == 0'),
    );
    expect(validateRules(text, known, RUNBOOK)).toEqual([
      'rules: test/BadPromQL: PromQL syntax error at offset 37 near "l[5m]) > 1"',
      'rules: test/UnknownMetric: unknown metric "analyst_made_up_total" (not a default and not defined in libs/ or apps/ sources)',
      'rules: test/NoSeverity: labels.severity must be one of critical, warning, info',
      'rules: test/NotCounted: no "### NotCounted" entry in the runbook of deploy/k8s/README.md',
    ]);
  });

  it('rejects unknown keys, a bad for, missing annotations and a duplicate alert', () => {
    const text = ['groups:', '  - name: g', '    rules:', '      - alert: GoodAlert', '        expr: up == 0', '        for: soon', '        labels: { severity: critical }', '        annotations: { summary: s }', '        severty: warning', '      - alert: GoodAlert', '        expr: up == 0', '        for: 1m', '        labels: { severity: info }', '        annotations: { summary: s, description: d, runbook: "deploy/k8s/README.md#goodalert" }'].join('\n');
    expect(validateRules(text, known, null)).toEqual([
      'rules: g/GoodAlert: unknown key "severty"',
      'rules: g/GoodAlert: "for" must be a duration such as 5m',
      'rules: g/GoodAlert: annotations.description is required',
      'rules: g/GoodAlert: annotations.runbook is required',
      'rules: g/GoodAlert: alert name used twice',
    ]);
  });

  it('finds the metric names of vector selectors only, not functions or labels', () => {
    expect(parsePromQL('histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{route="/x"}[5m]))) / on (service) up')).toEqual({
      errors: [],
      metrics: ['http_request_duration_seconds_bucket', 'up'],
    });
  });

  it('checks the dashboard against its schema, its variables and every target expr', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(OBS, 'grafana-dashboard.schema.json'), 'utf8'));
    const dashboard = JSON.parse(fs.readFileSync(path.join(OBS, 'grafana-dashboard.json'), 'utf8'));
    const panel = dashboard.panels.find((p) => p.type === 'timeseries');
    panel.targets = [
      // Offsets count in the expr after Grafana's variables are substituted ($service → var, $__rate_interval → 5m).
      { refId: 'A', expr: 'sum(rate(http_requests_total{service=~"$service"}[$__rate_interval])' },
      { refId: 'B', expr: 'rate(analyst_made_up_total{pod="$pod"}[5m])' },
    ];
    expect(validateDashboard(dashboard, schema, known)).toEqual([
      `dashboard: panel ${panel.id} "${panel.title}" A: PromQL syntax error at offset 49 near "var"}[5m])"`,
      `dashboard: panel ${panel.id} "${panel.title}" B: variable $pod is not defined in templating`,
      `dashboard: panel ${panel.id} "${panel.title}" B: unknown metric "analyst_made_up_total" (not a default and not defined in libs/ or apps/ sources)`,
    ]);
    panel.kind = 'graph';
    delete panel.fieldConfig;
    expect(validateDashboard(dashboard, schema, known)).toEqual([
      `dashboard: /panels/${dashboard.panels.indexOf(panel)} must have required property 'fieldConfig'`,
      `dashboard: /panels/${dashboard.panels.indexOf(panel)} must NOT have additional properties ("kind")`,
    ]);
  });
});
