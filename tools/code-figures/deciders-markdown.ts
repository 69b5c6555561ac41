import { relative } from 'node:path';
import type { RequestWalk } from './request-walk';

/** `libs/ingest/src/add-posts/add-posts.controller.ts` -> `ingest/add-posts/add-posts.controller.ts`. */
function shortPath(root: string, file: string): string {
  return relative(root, file).replace(/^(libs|apps)\/([^/]+)\/src\//, '$2/');
}

/**
 * The route -> decider table of docs/layout.md: one row per decider and call chain, the routes that
 * share both in one row (a controller's routes into one service method's chain).
 */
export function decidersMarkdown(root: string, walks: { route: string; walk: RequestWalk }[]): string[] {
  const rows = new Map<string, { routes: string[]; decider: string; chain: string }>();
  for (const { route, walk } of walks)
    for (const decider of walk.deciders) {
      const chain = decider.via.map((file) => `\`${shortPath(root, file)}\``).join(' → ');
      const key = `${decider.name} ${chain}`;
      const row = rows.get(key) ?? { routes: [], decider: `\`${decider.name}\``, chain };
      row.routes.push(`\`${route}\``);
      rows.set(key, row);
    }
  return [
    '| Route | Decider | Files from the controller to the decider |',
    '| --- | --- | --- |',
    ...[...rows.values()].map((row) => `| ${row.routes.join(', ')} | ${row.decider} | ${row.chain} |`),
  ];
}
