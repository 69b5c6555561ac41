import { Counter, Histogram, Registry } from 'prom-client';
import { HttpMetrics } from '@analyst/platform';

/** HttpMetrics as it was: prom-client's Counter and Histogram, observed label set by label set. */
function reference(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
  };
}

describe('HttpMetrics', () => {
  const NAMES = ['http_requests_total', 'http_request_duration_seconds'];
  const text = async (registry: Registry) =>
    Promise.all(NAMES.map((n) => registry.getSingleMetricAsString(n)));
  const json = async (registry: Registry) =>
    (await registry.getMetricsAsJSON()).filter((m) => NAMES.includes(m.name));

  it('writes what prom-client Counter and Histogram write for the same responses, scrape after scrape', async () => {
    const ours = new HttpMetrics('test');
    const theirs = reference('test');
    const observe = (...a: [string, string, number, number]) => {
      ours.observe(...a);
      theirs.observe(...a);
    };
    // Bounds exactly, between them, past the last; routes and statuses first seen in between.
    observe('GET', '/healthz', 200, 0.001);
    observe('GET', '/analyst/v1/me', 200, 0.005);
    observe('GET', '/healthz', 503, 0.0051);
    observe('POST', '/analyst/v1/analyses', 201, 0.3);
    observe('GET', '/analyst/v1/me', 429, 7);
    expect(await text(ours.registry)).toEqual(await text(theirs.registry));
    expect(await json(ours.registry)).toEqual(await json(theirs.registry));
    for (let i = 0; i < 200; i++)
      observe('GET', i % 3 ? '/analyst/v1/me' : 'unmatched', i % 7 ? 200 : 404, i / 97);
    observe('GET', '/healthz', 200, 2.5);
    expect(await text(ours.registry)).toEqual(await text(theirs.registry));
    expect(await json(ours.registry)).toEqual(await json(theirs.registry));
    expect(await ours.registry.metrics()).toContain(
      'http_requests_total{method="GET",route="/analyst/v1/me",status="429",service="test"} 1',
    );
  });

  it('refuses a latency that is not a number, as prom-client does', () => {
    expect(() => new HttpMetrics('test').observe('GET', '/x', 200, Number.NaN)).toThrow(
      'Value is not a valid number: NaN',
    );
  });
});
