import { relative } from 'node:path';
import type { RequestWalk } from './request-walk';

/** The longest line docs/ takes (tools/test/docs-pages.spec.js). */
const MAX_LINE = 400;

/** `libs/ingest/src/add-posts/add-posts.controller.ts` -> `ingest/add-posts/add-posts.controller.ts`. */
function shortPath(root: string, file: string): string {
  return relative(root, file).replace(/^(libs|apps)\/([^/]+)\/src\//, '$2/');
}

/**
 * The route -> decider table of docs/layout.md: one row per decider and call chain, the routes that
 * share both in one row (a controller's routes into one service method's chain) while it fits a line.
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
  const lines = ['| Route | Decider | Files from the controller to the decider |', '| --- | --- | --- |'];
  for (const row of rows.values()) {
    // The docs keep lines under 400 characters: routes that would pass it go on a row of their own.
    let routes: string[] = [];
    const line = (group: string[]): string => `| ${group.join(', ')} | ${row.decider} | ${row.chain} |`;
    for (const route of row.routes) {
      if (routes.length > 0 && line([...routes, route]).length > MAX_LINE) {
        lines.push(line(routes));
        routes = [];
      }
      routes.push(route);
    }
    lines.push(line(routes));
  }
  return lines;
}
