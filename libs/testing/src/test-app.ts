import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  FixedClock,
  ObservabilityModule,
  PlatformModule,
  SequentialIdGenerator,
  createHttpApp,
  loadConfig,
  type Clock,
  type IdGenerator,
} from '@analyst/platform';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestAppOptions {
  /** Feature modules to mount, e.g. GatewayModule, LedgerModule. */
  modules: unknown[];
  clock?: Clock;
  ids?: IdGenerator;
  /** Set to null to run without an admin API. */
  adminToken?: string | null;
  duplicateDelivery?: boolean;
  /** Reuse a data dir (to test restarts); a fresh temp dir otherwise, removed on close. */
  dataDir?: string;
  env?: Record<string, string>;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | number | string[] | undefined>;
  body: T;
  raw: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  clock: Clock;
  dataDir: string;
  request<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: { headers?: Record<string, string>; body?: unknown; ip?: string },
  ): Promise<TestResponse<T>>;
  /** Admin API call authenticated with the test admin token. */
  admin<T = any>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

/** Boots the given modules in one Fastify app exactly as standalone serves them, on a temp data dir. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'analyst-test-'));
  const adminToken = options.adminToken === undefined ? TEST_ADMIN_TOKEN : options.adminToken;
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(adminToken ? { ANALYST_ADMIN_TOKEN: adminToken } : {}),
    ...(options.env ?? {}),
  });
  const clock = options.clock ?? new FixedClock('2026-03-10T12:00:00.000Z');
  class TestRootModule {}
  Module({
    imports: [
      PlatformModule.forRoot(config, {
        clock,
        ids: options.ids ?? new SequentialIdGenerator(),
        duplicateDelivery: options.duplicateDelivery,
      }),
      ObservabilityModule.forRoot({ service: 'test', level: 'silent' }),
      ...(options.modules as never[]),
    ],
  })(TestRootModule);
  const app = await createHttpApp(TestRootModule, { structuredLogs: false });
  await app.getHttpAdapter().getInstance().ready();

  const request: TestApp['request'] = async (method, url, opts = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: opts.headers,
      payload: opts.body === undefined ? undefined : (opts.body as object),
      remoteAddress: opts.ip,
    });
    let body: unknown = response.body;
    try {
      body = response.json();
    } catch {
      // not JSON (metrics, empty bodies): keep the text
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: body as never,
      raw: response.body,
    };
  };

  return {
    app,
    clock,
    dataDir,
    request,
    admin: (method, url, body) =>
      request(method, url, { headers: { authorization: `Bearer ${adminToken}` }, body }),
    close: async () => {
      await app.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
