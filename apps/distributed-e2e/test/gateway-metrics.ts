/** One series of a Prometheus text exposition: its labels and value. */
export interface MetricSample {
  labels: Record<string, string>;
  value: number;
}

/** The series of `name` in a /metrics text (labelled series only: every gateway series carries `service`). */
export function metricSamples(text: string, name: string): MetricSample[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? ['', '', 'NaN'];
      return {
        labels: Object.fromEntries([...labels.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]])),
        value: Number(value),
      };
    });
}

/** GET <base>/metrics as text. */
export async function scrape(base: string): Promise<string> {
  const response = await fetch(`${base}/metrics`);
  if (response.status !== 200) throw new Error(`${base}/metrics answered ${response.status}`);
  return response.text();
}

/** The gateways' forwards to each replica of `upstream`, summed over the gateways. */
export async function forwardsByReplica(gateways: string[], upstream: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (const text of await Promise.all(gateways.map(scrape)))
    for (const s of metricSamples(text, 'analyst_gateway_upstream_forwards_total'))
      if (s.labels.upstream === upstream)
        sums.set(s.labels.replica, (sums.get(s.labels.replica) ?? 0) + s.value);
  return sums;
}

/** What each replica gained between two readings of forwardsByReplica (replicas that gained nothing left out). */
export function gained(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [replica, count] of after) {
    const delta = count - (before.get(replica) ?? 0);
    if (delta > 0) out[replica] = delta;
  }
  return out;
}

/** Each gateway's `analyst_gateway_upstream_replicas_ready` for `upstream`. */
export async function readyReplicas(gateways: string[], upstream: string): Promise<number[]> {
  return Promise.all(
    gateways.map(async (gateway) => {
      const sample = metricSamples(await scrape(gateway), 'analyst_gateway_upstream_replicas_ready').find(
        (s) => s.labels.upstream === upstream,
      );
      return sample?.value ?? -1;
    }),
  );
}
