import { ConfigError } from '../config/analyst-config';
import { enableTracing, tracingEnabled } from './tracing';

export interface TracingSettings {
  /** OTLP/HTTP endpoint; the exporter reads it (and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS) itself. */
  endpoint: string;
  serviceName: string;
}

/**
 * Whether to trace, from the standard OpenTelemetry variables: on when an OTLP endpoint is set
 * (and OTEL_SDK_DISABLED is not `true`). A malformed endpoint is a configuration error (exit 2),
 * like any other bad variable, rather than spans silently going nowhere.
 */
export function tracingSettings(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const name = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
    : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = env[name]?.trim();
  if (!endpoint) return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`${name}: "${endpoint}" is not a URL; expected e.g. http://otel-collector:4318`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `${name}: "${endpoint}" must be an http:// or https:// OTLP/HTTP endpoint (port 4318 on a collector)`,
    );
  }
  return { endpoint, serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName };
}

let provider: { forceFlush(): Promise<void>; shutdown(): Promise<void> } | null = null;

/**
 * Registers the OpenTelemetry SDK (async context, W3C propagation, batched OTLP/HTTP JSON export)
 * when `settings` says so. The SDK is loaded only then: without an endpoint no SDK module is even
 * required and every span helper stays a plain function call.
 */
export async function startTracing(settings: TracingSettings | null): Promise<boolean> {
  if (!settings || tracingEnabled()) return tracingEnabled();
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { detectResources, envDetector, resourceFromAttributes },
    { ATTR_SERVICE_NAME },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME (envDetector) win over the app's own name.
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const sdk = new NodeTracerProvider({
    resource,
    // Batches (OTEL_BSP_SCHEDULE_DELAY, default 5 s) keep export off the request path.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  sdk.register();
  provider = sdk;
  enableTracing(sdk);
  return true;
}

/** Sends the spans still batched; called when an app closes (a SIGTERM would otherwise lose the last batch). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush().catch(() => undefined);
}
