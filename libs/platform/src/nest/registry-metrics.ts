import {
  Counter,
  Gauge,
  type CounterConfiguration,
  type GaugeConfiguration,
  type Registry,
} from 'prom-client';

/**
 * The metric registered on `registry` under `name`, or `create`d: several modules (or test apps)
 * may share one registry, and prom-client refuses a second metric of a name.
 */
function registered<M>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/** The gauge `config.name` on `registry`, registered there by the first caller. */
export function gaugeOn<L extends string = string>(
  registry: Registry,
  config: Omit<GaugeConfiguration<L>, 'registers'>,
): Gauge<L> {
  return registered(registry, config.name, () => new Gauge({ ...config, registers: [registry] }));
}

/** The counter `config.name` on `registry`, registered there by the first caller. */
export function counterOn<L extends string = string>(
  registry: Registry,
  config: Omit<CounterConfiguration<L>, 'registers'>,
): Counter<L> {
  return registered(registry, config.name, () => new Counter({ ...config, registers: [registry] }));
}
