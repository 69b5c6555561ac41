import 'reflect-metadata';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod, type Type } from '@nestjs/common';
import { OPERATOR_ROUTES, ROUTE_POLICIES } from '@analyst/contracts';
import { AnalysisModule } from '@analyst/analysis';
import { GatewayModule, GatewayProxyModule, serviceOf } from '@analyst/gateway';
import { API_PREFIX } from '@analyst/platform';
import { IngestModule } from '@analyst/ingest';
import { LedgerModule } from '@analyst/ledger';
import { NotifierModule } from '@analyst/notifier';
import { SamplingModule } from '@analyst/sampling';

/** Each service module, as its app mounts it, by the name the route table and the proxy use. */
const MODULES = {
  gateway: GatewayModule,
  ingest: IngestModule,
  ledger: LedgerModule,
  analysis: AnalysisModule,
  sampling: SamplingModule,
  notifier: NotifierModule,
} as const;
type Service = keyof typeof MODULES;

/** A module's controllers and those of the modules it imports (the notifier is made of three). */
function controllersOf(module: Type, seen = new Set<Type>()): Type[] {
  if (seen.has(module)) return [];
  seen.add(module);
  const own = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Type[];
  const imports = ((Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) ?? []) as unknown[]).filter(
    (m): m is Type => typeof m === 'function',
  );
  return [...own, ...imports.flatMap((m) => controllersOf(m, seen))];
}

/** `METHOD /path/{param}` of every handler a module's controllers declare, read from Nest's metadata. */
function controllerRoutes(module: Type): string[] {
  const controllers = controllersOf(module);
  const routes: string[] = [];
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      // A handler may be mounted on several paths (the gateway's proxy: one handler per method).
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (paths === undefined || method === undefined) continue;
      for (const path of [paths].flat()) {
        const full = `/${[base, path].join('/')}`
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1')
          .replace(/:([A-Za-z]+)/g, '{$1}');
        routes.push(`${RequestMethod[method]} ${full}`);
      }
    }
  }
  return routes.sort();
}

const served = Object.fromEntries(
  (Object.keys(MODULES) as Service[]).map((service) => [service, controllerRoutes(MODULES[service])]),
) as Record<Service, string[]>;

describe('routes as data: the route table and the controllers that serve it', () => {
  it('reads routes from every service (the metadata this test relies on is there)', () => {
    for (const service of Object.keys(MODULES) as Service[])
      expect(served[service].length).toBeGreaterThan(0);
    expect(served.sampling).toContain('GET /analyses/{analysisId}/comments');
  });

  it("serves every public route of the table by its owner's controllers, and by no other service", () => {
    for (const policy of ROUTE_POLICIES) {
      const route = `${policy.method} ${policy.path}`;
      const servedBy = (Object.keys(MODULES) as Service[]).filter((s) => served[s].includes(route));
      expect([route, servedBy]).toEqual([route, [policy.owner]]);
    }
  });

  it('lists every public route a controller serves in the table, with that service as its owner', () => {
    for (const service of Object.keys(MODULES) as Service[]) {
      for (const route of served[service].filter((r) => !r.split(' ')[1].startsWith('/admin/'))) {
        const policy = ROUTE_POLICIES.find((p) => `${p.method} ${p.path}` === route);
        expect([route, policy?.owner]).toEqual([route, service]);
      }
    }
  });

  it('lists every operator route another service serves, and only those, with that service as its owner', () => {
    const adminServed = (service: Service) =>
      served[service].filter((r) => r.split(' ')[1].startsWith('/admin/'));
    const elsewhere = (['ingest', 'ledger', 'analysis', 'sampling'] as const).flatMap((service) =>
      adminServed(service).map((route) => `${route} -> ${service}`),
    );
    const listed = OPERATOR_ROUTES.map((r) => `${r.method} ${r.path} -> ${r.owner}`);
    expect(listed.sort()).toEqual(elsewhere.sort());
    // The gateway's own operator routes are not forwarded.
    for (const route of adminServed('gateway'))
      expect(listed.some((f) => f.startsWith(`${route} `))).toBe(false);
  });

  it("the gateway's proxy mounts every route another service owns, and only those", () => {
    const forwarded = [...ROUTE_POLICIES.filter((p) => p.owner !== 'gateway'), ...OPERATOR_ROUTES].map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(controllerRoutes(GatewayProxyModule)).toEqual(forwarded.sort());
    expect(ROUTE_POLICIES.filter((p) => p.owner === 'gateway').map((p) => p.path)).toEqual(['/me', '/team']);
  });

  it('forwards each route, by the pattern Fastify matched, to the owner the table names', () => {
    const pattern = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
    for (const policy of ROUTE_POLICIES.filter((p) => p.owner !== 'gateway')) {
      const route = `${policy.method} ${API_PREFIX}${pattern(policy.path)}`;
      expect([route, serviceOf(policy.method, `${API_PREFIX}${pattern(policy.path)}`)]).toEqual([
        route,
        policy.owner,
      ]);
    }
    for (const operator of OPERATOR_ROUTES) {
      const route = `${operator.method} ${pattern(operator.path)}`;
      expect([route, serviceOf(operator.method, pattern(operator.path))]).toEqual([route, operator.owner]);
    }
    expect(serviceOf('GET', '/analyst/v1/content/jobs/:jobId')).toBe('ingest');
    expect(() => serviceOf('GET', '/analyst/v1/me')).toThrow('no forwarded route GET /analyst/v1/me');
  });
});
