import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { chromium, type Browser } from 'playwright-core';
import { createHttpApp, loadConfig } from '@analyst/platform';
import { StandaloneModule } from '../src/app.module';

/**
 * The API reference page at /analyst/v1/docs, opened in a real headless Chromium (Debian's
 * `chromium`, driven by playwright-core; no browser is downloaded). Where no Chromium is installed
 * the browser part is skipped and says so; `.ci/run` installs it.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.log(
    `skipped: the docs page browser test needs Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );

describe('API reference page', () => {
  let dataDir: string;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'analyst-docs-'));
    app = await createHttpApp(
      StandaloneModule.forRoot(loadConfig({ ANALYST_DATA_DIR: dataDir, LOG_LEVEL: 'silent' })),
      { structuredLogs: false },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the page and its renderer locally, without a key', async () => {
    const page = await fetch(`${base}/analyst/v1/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('spec-url="/analyst/v1/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//); // no CDN: every asset comes from this server
    // The guides in the repository are named above the reference (as paths, not links elsewhere).
    expect(html).toContain('<code>README.md</code>: the first ten minutes');
    expect(html).toContain('<code>docs/configuration.md</code>: every environment variable');
    const script = await fetch(`${base}/analyst/v1/docs/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
  });

  (haveChromium ? it : it.skip)(
    'renders every operation of the document in Chromium',
    async () => {
      const doc = (await (await fetch(`${base}/analyst/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { summary?: string }>>;
      };
      const summaries: string[] = [];
      for (const item of Object.values(doc.paths as Record<string, Record<string, { summary?: string }>>)) {
        for (const operation of Object.values(item)) if (operation.summary) summaries.push(operation.summary);
      }
      expect(summaries.length).toBeGreaterThanOrEqual(20);
      let browser: Browser | null = null;
      try {
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--no-sandbox', '--disable-gpu'],
        });
        const page = await browser.newPage();
        const elsewhere: string[] = [];
        const errors: string[] = [];
        const external = (url: string) => !url.startsWith(base) && !/^(data|blob):/.test(url);
        // The renderer's footer asks for a logo on a CDN; the page's CSP must stop it before it leaves.
        page.on('requestfinished', (r) => {
          if (external(r.url())) elsewhere.push(`fetched ${r.url()}`);
        });
        page.on('requestfailed', (r) => {
          if (external(r.url()) && !/BLOCKED_BY_CSP|csp/i.test(r.failure()?.errorText ?? ''))
            elsewhere.push(`${r.url()}: ${r.failure()?.errorText}`);
        });
        page.on('pageerror', (e) => errors.push(e.message));
        await page.goto(`${base}/analyst/v1/docs`, { waitUntil: 'networkidle' });
        await page.waitForSelector('[role="menuitem"], .menu-content', { timeout: 30_000 });
        const text = await page.evaluate(
          () =>
            (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText,
        );
        const missing = summaries.filter((s) => !text.includes(s));
        expect(missing).toEqual([]);
        expect(elsewhere).toEqual([]); // nothing from a CDN or anywhere else
        expect(errors).toEqual([]);
        const out = process.env.OUT ?? tmpdir();
        await page.screenshot({ path: join(out, 'analyst-api-docs.png'), fullPage: false });
      } finally {
        await browser?.close();
      }
    },
    90_000,
  );
});
