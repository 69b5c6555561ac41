import { readFileSync } from 'node:fs';
import { API_PREFIX } from './api-paths';

/** Where the renderer's bundle comes from: the `redoc` package in node_modules, served by the app itself (no CDN). */
const BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');

/**
 * Everything the page loads comes from this server. The renderer's footer links an image on a CDN;
 * the policy keeps the browser from fetching it (styles are inline, search runs in a blob worker).
 */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'";

/**
 * The guides in the repository, named on the page (as paths: the page links to nothing outside this
 * server). tools/test/docs-pages.spec.js fails when a docs/ page is missing here.
 */
const DOC_PAGES: readonly { path: string; about: string }[] = [
  { path: 'README.md', about: 'the first ten minutes' },
  { path: 'docs/configuration.md', about: 'every environment variable' },
  { path: 'docs/api.md', about: 'clients, decisions where the spec leaves a choice, extensions' },
  { path: 'docs/webhooks.md', about: 'push: webhooks and the event stream (an extension)' },
  { path: 'docs/topologies-and-deployment.md', about: 'standalone and distributed, the stores' },
  { path: 'docs/operations-and-runbooks.md', about: 'commands, logs, probes, alerts' },
  { path: 'docs/guarantees-and-audit.md', about: 'what holds across replicas and faults' },
  { path: 'docs/scoring-models-and-data.md', about: 'scores, models and their data' },
  { path: 'docs/real-providers.md', about: 'YouTube and Reddit with your own keys' },
  { path: 'docs/benchmarks.md', about: 'measured figures and their commands' },
  { path: 'docs/testing.md', about: 'what the tests run against' },
  { path: 'docs/layout.md', about: 'where the code lives' },
];

/** The API reference page: the guides' list above Redoc rendering the document this app serves. */
export function apiDocsPage(): string {
  const guides = DOC_PAGES.map((page) => `<li><code>${page.path}</code>: ${page.about}</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Analyst API reference</title>
<style>body { margin: 0; } nav { font: 14px/1.5 sans-serif; padding: 8px 20px; border-bottom: 1px solid #ddd; } nav ul { margin: 4px 0; }</style>
</head>
<body>
<nav aria-label="Guides"><details><summary>Guides in the Analyst repository (README.md, docs/)</summary>
<ul>
${guides}
</ul>
</details></nav>
<redoc spec-url="${API_PREFIX}/openapi.json" hide-download-button="false"></redoc>
<script src="${API_PREFIX}/docs/redoc.standalone.js"></script>
</body>
</html>
`;
}

/** The reply calls used, typed structurally (Nest's adapter has its own copy of fastify). */
interface ReplyLike {
  type(contentType: string): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: unknown): ReplyLike;
}
interface RouteHost {
  get(path: string, handler: (request: unknown, reply: ReplyLike) => unknown): unknown;
}

/** `GET /analyst/v1/docs` (the page) and its script, readable without a key like the document itself. */
export function serveApiDocs(fastify: RouteHost): void {
  const page = apiDocsPage();
  let bundle: Buffer | null = null;
  fastify.get(`${API_PREFIX}/docs`, (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', CSP)
      .send(page),
  );
  fastify.get(`${API_PREFIX}/docs/redoc.standalone.js`, (_request, reply) => {
    // Read once, on first use: most processes never serve the page.
    bundle ??= readFileSync(BUNDLE);
    return reply
      .type('application/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(bundle);
  });
}
