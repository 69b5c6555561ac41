import { format } from 'node:util';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

const REQUESTS = 'http_requests_total';
const LATENCY = 'http_request_duration_seconds';
const LATENCY_HELP = 'HTTP request latency by route pattern';
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** One status of one route: its labels, built once, and the requests not yet handed to the counter. */
interface StatusCount {
  labels: { method: string; route: string; status: string };
  pending: number;
}

/** One route's latency, kept as prom-client's Histogram keeps a series (per-bucket counts, sum, count). */
interface RouteSeries {
  labels: { method: string; route: string };
  buckets: number[];
  sum: number;
  count: number;
  statuses: Map<number, StatusCount>;
}

/** A value of a metric as prom-client's registry formats it. */
interface MetricValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * One Prometheus registry per process: request counts and latency per route, plus Node defaults.
 *
 * Every response is observed, so the observation is a few additions on objects found by method and
 * route: prom-client's own `inc`/`observe` build, validate and hash the label set on every call
 * (about 0.7 µs a response in a loop, more under load). The counts reach the registry when it is
 * read, in the text prom-client writes: the request counter through its `collect`, the latency
 * histogram as a registry metric that answers what prom-client's Histogram answers.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly routes = new Map<string, Map<string, RouteSeries>>();
  /** Series in the order they were first observed: the order prom-client lists them. */
  private readonly series: RouteSeries[] = [];
  private readonly counts: StatusCount[] = [];

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const counts = this.counts;
    new Counter({
      name: REQUESTS,
      help: 'HTTP requests by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
      collect() {
        for (const c of counts) {
          if (c.pending === 0) continue;
          this.inc(c.labels, c.pending);
          c.pending = 0;
        }
      },
    });
    const series = this.series;
    this.registry.registerMetric({
      name: LATENCY,
      help: LATENCY_HELP,
      type: 'histogram',
      aggregator: 'sum',
      get: () => latencyMetric(series, true),
      getForPromString: () => latencyMetric(series, false),
      reset: () => series.splice(0).forEach((s) => this.routes.get(s.labels.method)?.delete(s.labels.route)),
    } as never);
  }

  /** `route` is the pattern (`/analyst/v1/posts/:postId`), never the raw URL, to bound cardinality. */
  observe(method: string, route: string, status: number, seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${format(seconds)}`);
    const series = this.seriesOf(method, route);
    let counted = series.statuses.get(status);
    if (!counted) {
      counted = { labels: { method, route, status: String(status) }, pending: 0 };
      series.statuses.set(status, counted);
      this.counts.push(counted);
    }
    counted.pending += 1;
    series.sum += seconds;
    series.count += 1;
    // prom-client's bucket: the first upper bound the value is within; none past the last one.
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= BUCKETS[i]) {
        series.buckets[i] += 1;
        break;
      }
    }
  }

  private seriesOf(method: string, route: string): RouteSeries {
    let byRoute = this.routes.get(method);
    if (!byRoute) {
      byRoute = new Map();
      this.routes.set(method, byRoute);
    }
    let series = byRoute.get(route);
    if (!series) {
      series = {
        labels: { method, route },
        buckets: BUCKETS.map(() => 0),
        sum: 0,
        count: 0,
        statuses: new Map(),
      };
      byRoute.set(route, series);
      this.series.push(series);
    }
    return series;
  }
}

/** What prom-client's Histogram answers (`get` with the labels merged, `getForPromString` without). */
function latencyMetric(series: RouteSeries[], splay: boolean) {
  const values: MetricValue[] = [];
  const push = (labels: Record<string, string | number>, v: number, suffix: string, s: RouteSeries) => {
    const metricName = `${LATENCY}${suffix}`;
    // Bucket lines carry a null exemplar, the sum and count none (as prom-client's do).
    const exemplar = suffix === '_bucket' ? null : undefined;
    values.push(
      splay
        ? { value: v, metricName, exemplar, labels: { ...labels, ...s.labels } }
        : { labels, sharedLabels: s.labels, value: v, metricName, exemplar },
    );
  };
  for (const s of series) {
    let cumulative = 0;
    for (let i = 0; i < BUCKETS.length; i++) {
      cumulative += s.buckets[i];
      push({ le: BUCKETS[i] }, cumulative, '_bucket', s);
    }
    push({ le: '+Inf' }, s.count, '_bucket', s);
    push({}, s.sum, '_sum', s);
    push({}, s.count, '_count', s);
  }
  return { name: LATENCY, help: LATENCY_HELP, type: 'histogram', values, aggregator: 'sum' };
}
