import { randomUUID } from 'node:crypto';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import FindMyWay from 'find-my-way';
import type { Logger } from 'pino';
import { ANALYST_CONFIG, trustedProxies, type AnalystConfig } from '../config/analyst-config';
import { API_PREFIX, LEGACY_MARKER, rewriteLegacyUrl } from './api-paths';
import { routePattern } from './route-pattern';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { completeOpenApiDocument, openApiConfig } from './openapi';
import { HttpMetrics } from './metrics';
import { PINO_LOGGER, PinoNestLogger } from './pino-nest-logger';
import { QueryRules } from './query-rules';
import { useJsonBodyParser } from './json-body';
import { serveApiDocs } from './api-docs';
import { clientErrorHandler, frameworkErrors } from './framework-errors';
import { apiValidationPipe } from './validation';
import { HealthRegistry } from './health-registry';
import { serveStartupProbes, type ProbeAddress } from './startup-probes';
import { activateServerSpan, endServerSpan, startServerSpan } from '../tracing/http-server';
import { flushTracing } from '../tracing/start-tracing';
import { tracingEnabled } from '../tracing/tracing';

// The OpenAPI helpers the controllers decorate their routes with, exported with the app that serves the document.
export * from './openapi';

const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_ID = /^[\w.-]{1,128}$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface HttpAppOptions {
  /** Use the structured pino logger (off in tests, which keep Nest quiet). */
  structuredLogs?: boolean;
  /**
   * The service's pino logger (serviceLogger), when it exists before the app: Nest writes through it
   * from its first line, so a store that cannot be reached while providers are created is logged in
   * the same shape, and the error reaches the caller instead of aborting the process.
   */
  logger?: Logger;
  /**
   * The address the app will listen on: `/healthz` and `/readyz` answer there while the app
   * initialises (see serveStartupProbes), and the address is freed when this function returns.
   */
  startupProbes?: ProbeAddress;
}

/** The app's validated configuration; absent in an app mounted without PlatformModule. */
function configOf(app: NestFastifyApplication): AnalystConfig | undefined {
  try {
    return app.get<AnalystConfig>(ANALYST_CONFIG, { strict: false });
  } catch {
    return undefined;
  }
}

/** The app's health registry; absent in an app mounted without ObservabilityModule. */
function registryOf(app: NestFastifyApplication): HealthRegistry | undefined {
  try {
    return app.get(HealthRegistry, { strict: false });
  } catch {
    return undefined;
  }
}

/**
 * Builds a Fastify-backed Nest app the way every service serves HTTP: public routes under
 * `/analyst/v1` (with `/v1/client` as an alias), health and metrics at the root, one error
 * envelope, validation that names fields, 405 for a known path with the wrong method, and the
 * OpenAPI document generated from the DTOs.
 */
export async function createHttpApp(
  rootModule: unknown,
  options: HttpAppOptions = {},
): Promise<NestFastifyApplication> {
  if (!options.startupProbes) return assembleHttpApp(rootModule, options, () => undefined);
  // From before the stores connect until the app is ready to listen: the registry is the app's once created.
  let registry: HealthRegistry | undefined;
  const probes = await serveStartupProbes(() => registry, options.startupProbes);
  try {
    return await assembleHttpApp(rootModule, options, (app) => (registry = registryOf(app)));
  } finally {
    await probes.close();
  }
}

/** createHttpApp's work; `created` hears of the app as soon as Nest has made it, before init. */
async function assembleHttpApp(
  rootModule: unknown,
  options: HttpAppOptions,
  created: (app: NestFastifyApplication) => void,
): Promise<NestFastifyApplication> {
  // Fastify builds its trust test before Nest resolves the config, so it asks this one, set below.
  let trusted: ((address: string) => boolean) | null = null;
  const adapter = new FastifyAdapter({
    rewriteUrl: (req: unknown) => rewriteLegacyUrl(req as Parameters<typeof rewriteLegacyUrl>[0]),
    // request.ip is the rightmost X-Forwarded-For hop not in ANALYST_TRUST_PROXY, and only when the
    // socket peer itself is trusted; with nothing trusted it is the socket peer (the header is ignored).
    trustProxy: (address: string) => trusted?.(address) ?? false,
    bodyLimit: 1024 * 1024,
    // Reuse a caller's correlation id, so one id follows a request across services and logs.
    requestIdHeader: CORRELATION_HEADER,
    // No Nest middleware is mounted in any service (`app.use`, `configure(consumer)`), so no request
    // goes through @fastify/middie's hook. A module that adds middleware fails at start-up, not silently.
    skipMiddie: true,
    genReqId: () => randomUUID(),
    // Errors Fastify answers before any hook runs (a path segment over 100 characters, a bad URL,
    // an oversized request head) in the same envelope, with a correlation id.
    frameworkErrors: frameworkErrors as never,
    clientErrorHandler,
  });
  const structured = options.structuredLogs !== false;
  const app = await NestFactory.create<NestFastifyApplication>(rootModule as never, adapter, {
    // Without a logger yet, Nest's lines are held back until the module's one is installed, below.
    bufferLogs: structured && !options.logger,
    logger: !structured ? false : options.logger ? new PinoNestLogger(options.logger) : undefined,
    // A failed start is rethrown to the caller (which logs it and exits 1), not process.abort().
    abortOnError: !options.logger,
  });
  created(app);
  trusted = trustedProxies(configOf(app)?.ANALYST_TRUST_PROXY);
  const logger = !structured ? null : (options.logger ?? app.get<Logger>(PINO_LOGGER, { strict: false }));
  if (logger && !options.logger) {
    app.useLogger(new PinoNestLogger(logger));
    // Nest holds lines back (bufferLogs) until the app listens, which after a slow or failing
    // start-up is minutes late or never: print them now and every later one as it happens.
    app.flushLogs();
  }
  app.useGlobalFilters(new ErrorEnvelopeFilter());
  app.useGlobalPipes(apiValidationPipe());
  // Filled from the OpenAPI document once it is generated, below. Added after the modules'
  // APP_GUARDs (applied when the app was created), so it runs after authentication.
  const queryRules = new QueryRules();
  app.useGlobalGuards(queryRules);
  app.setGlobalPrefix(API_PREFIX.slice(1), {
    exclude: [
      { path: 'healthz', method: RequestMethod.GET },
      { path: 'readyz', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      { path: 'admin/*path', method: RequestMethod.ALL },
    ],
  });
  app.enableShutdownHooks();

  const fastify = adapter.getInstance();
  const quiet = new Set(['/healthz', '/readyz', '/metrics']);
  if (tracingEnabled()) {
    // Only when tracing is on: an untraced app has no extra hooks. Probes and scrapes every few
    // seconds would bury the traces worth reading.
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (!quiet.has(routePattern(request) ?? '')) startServerSpan(request);
      done();
    });
    fastify.addHook('preHandler', (request, _reply, done) => activateServerSpan(request, done));
    fastify.addHook('onResponse', (request, reply, done) => {
      endServerSpan(request, reply.statusCode);
      done();
    });
    fastify.addHook('onRequestAbort', (request, done) => {
      endServerSpan(request, 0, true);
      done();
    });
    // Nest closes the HTTP server after its consumers: the spans they ended are sent before exit.
    fastify.addHook('onClose', (_instance, done) => void flushTracing().finally(done));
  }
  const routes = FindMyWay();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.on(method as 'GET', route.url, () => undefined);
    }
  });
  // One hook, written with `done` rather than async: it runs on every request.
  fastify.addHook('onRequest', (request, reply, done) => {
    const id = SAFE_ID.test(request.id) ? request.id : randomUUID();
    request.headers[CORRELATION_HEADER] = id; // forwarded to services by the gateway
    reply.header(CORRELATION_HEADER, id); // sent as X-Correlation-Id; the reply keeps names in lower case
    // A path no route matched may still be known under another method: 405 rather than 404.
    if (routePattern(request) !== undefined) return done();
    const path = request.url.split('?')[0];
    const allowed = routes.find(request.method as 'GET', path)
      ? []
      : METHODS.filter((m) => m !== request.method && routes.find(m, path));
    if (allowed.length === 0) return done();
    void reply
      .status(405)
      .header('Allow', allowed.join(', '))
      .send({
        error: {
          message: `method ${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
          code: 'method_not_allowed',
        },
      });
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers[LEGACY_MARKER]) {
      reply.header('Deprecation', 'true');
      reply.header('Link', `<${API_PREFIX}>; rel="successor-version"`);
    }
    done(null, payload);
  });
  const metrics = app.get(HttpMetrics, { strict: false });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routePattern(request) ?? 'unmatched';
    metrics?.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (logger && !quiet.has(route) && logger.isLevelEnabled('info')) {
      logger.info(
        {
          correlationId: request.headers[CORRELATION_HEADER],
          method: request.method,
          url: request.url,
          route,
          statusCode: reply.statusCode,
          responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });

  await app.init();
  // After init: Nest registers its JSON parser there; ours replaces it.
  useJsonBodyParser(fastify);
  const document = completeOpenApiDocument(
    SwaggerModule.createDocument(app as INestApplication, openApiConfig()),
  );
  queryRules.load(document);
  fastify.get(`${API_PREFIX}/openapi.json`, async () => document);
  serveApiDocs(fastify as never);
  return app;
}
