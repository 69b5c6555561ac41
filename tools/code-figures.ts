/**
 * Figures about the code's shape, for reviews that compare a tree before and after a change:
 * how far each command route's controller is from its decider, which files a reader goes through
 * following a route and which deciders it reaches, the largest production files, functions above
 * complexity 15 and `as` casts.
 *
 *   npm run code-figures            # this tree
 *   npm run code-figures -- DIR     # another checkout (a worktree sharing this node_modules)
 *   npm run code-figures -- --deciders-table [DIR]   # only docs/layout.md's route -> decider table
 *
 * Production files are `libs/* /src` and `apps/* /src` without the generated client schema. How
 * each figure is counted is printed above it; the parts live in tools/code-figures/.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { casts, type FileCasts } from './code-figures/casts';
import { commandRoutes, readRoutes, type Route } from './code-figures/routes';
import { decidersMarkdown } from './code-figures/deciders-markdown';
import { complexFunctions } from './code-figures/complexity';
import { importGraph, importReach } from './code-figures/import-distance';
import { loadCodeBase, projectOf, type CodeBase } from './code-figures/program';
import { describePath, walkRequest } from './code-figures/request-walk';

/** The routes whose whole reading path is printed: the two the issue 41 review followed by hand. */
const PATHS_PRINTED = ['POST /content/posts/add', 'POST /analyses'];

function importDistances(codeBase: CodeBase): void {
  const { root } = codeBase;
  console.log('\n## command routes: files from the controller to its nearest decider, along imports');
  console.log(
    '(breadth first over value imports, barrels seen through, not through contracts, eventsourcing and platform)',
  );
  const graph = importGraph(codeBase);
  const reaches = commandRoutes(codeBase.program, codeBase.files).map((route) => ({
    route,
    reach: importReach(codeBase, graph, route),
  }));
  for (const { route, reach } of reaches)
    console.log(
      `${route.route.padEnd(44)} to decider ${String(reach.toDecider ?? '-').padStart(2)}  files ${String(reach.files).padStart(3)}  deciders ${reach.deciders}  ${relative(root, route.controller)} -> ${reach.decider ? relative(root, reach.decider) : 'none'}`,
    );
  const reaching = reaches.filter((r) => r.reach.toDecider !== null).map((r) => r.reach.toDecider as number);
  console.log(
    `routes ${reaches.length}, reaching a decider ${reaching.length}, most files to a decider ${Math.max(...reaching)}, median files spanned ${median(reaches.map((r) => r.reach.files))}`,
  );
}

function walksOf(codeBase: CodeBase, routes: Route[]) {
  return routes.map((route) => ({ route, walk: walkRequest(codeBase, route.method) }));
}

/** Every command route's walk, then those of the GET routes that reach a decider (a fold of its stream, or a decision). */
function decidingWalks(codeBase: CodeBase) {
  const { program, files } = codeBase;
  return [
    ...walksOf(codeBase, commandRoutes(program, files)),
    ...walksOf(codeBase, readRoutes(program, files)).filter(({ walk }) => walk.deciders.length > 0),
  ];
}

function requestWalks(codeBase: CodeBase): void {
  const { root } = codeBase;
  const walks = walksOf(codeBase, commandRoutes(codeBase.program, codeBase.files));
  console.log(
    '\n## following a command route: files a reader goes through, and returns to a file left earlier',
  );
  console.log(
    [
      'A static reading order, not a runtime trace. From the controller method: first the classes of its',
      'parameters (the DTOs validated before it runs), then each call and `new` of its body in source order',
      '(nested callbacks read in place; a function or class passed as an argument is followed like a call),',
      'resolved by the type checker to the declaration it runs, through `this.x.method()` where x is typed by a',
      'class; depth first, each function read once (the first time); a DTO class is read as its decorators',
      'and the classes it names. Not followed: contracts, eventsourcing and platform (counted as "shared"),',
      'calls to an interface (a port), libraries outside libs/ and apps/, bus messages, event subscribers.',
      'files: distinct files on the path; returns: times the path comes back to a file it left earlier (the',
      'reader is back at the call site before following the next call, so a file re-enters only when a',
      'further call is followed from it); read: functions and classes read; to deciders: files in the call',
      'chain from the controller to its nearest and its farthest decider, both ends included (table below).',
    ].join('\n'),
  );
  for (const { route, walk } of walks) {
    const depths = walk.deciders.map((d) => d.via.length);
    const toDeciders = depths.length === 0 ? '-' : `${Math.min(...depths)}-${Math.max(...depths)}`;
    console.log(
      `${route.route.padEnd(44)} files ${String(walk.files.length).padStart(3)}  returns ${String(walk.returns).padStart(3)}  read ${String(walk.read).padStart(3)}  shared ${String(walk.shared.length).padStart(2)}  deciders ${walk.deciders.length}  to deciders ${toDeciders}`,
    );
  }
  for (const { route, walk } of walks.filter((w) => PATHS_PRINTED.includes(w.route.route))) {
    console.log(`\n${route.route}, path of ${walk.path.length} steps:\n${describePath(root, walk.path)}`);
    const byProject = tally(walk.files.map((file) => projectOf(root, file)));
    console.log(`files by library: ${byProject.map(([lib, n]) => `${lib} ${n}`).join(', ')}`);
    const returnsInto = tally(walk.path.map((file) => relative(root, file)))
      .filter(([, entries]) => entries > 1)
      .map(([file, entries]) => `${file} ${entries - 1}`);
    console.log(`returns into a file, most first: ${returnsInto.slice(0, 5).join(', ')}`);
  }

  console.log(
    '\n## command routes, and GET routes that reach a decider (to fold its stream or decide), with the deciders they reach (by the reading above)',
  );
  console.log('(each decider with the files of the call chain that reaches it, from the controller)');
  for (const { route, walk } of decidingWalks(codeBase)) {
    console.log(`${route.route}${walk.deciders.length === 0 ? ' none' : ''}`);
    for (const d of walk.deciders) console.log(`  ${d.name}: ${describePath(root, d.via)}`);
  }
}

function largestFiles(codeBase: CodeBase): void {
  const { root, files } = codeBase;
  console.log('\n## largest production files (lines)');
  const sizes = files.map((f) => ({
    file: relative(root, f),
    lines: readFileSync(f, 'utf8').split('\n').length,
  }));
  for (const s of sizes.sort((a, b) => b.lines - a.lines).slice(0, 10))
    console.log(`${String(s.lines).padStart(5)} ${s.file}`);
  console.log(`files over 300 lines: ${sizes.filter((s) => s.lines > 300).length}`);
}

function castFigures(codeBase: CodeBase): void {
  const { root } = codeBase;
  const found = casts(codeBase.program, codeBase.files);
  const sum = (key: keyof Omit<FileCasts, 'file'>): number => found.reduce((n, c) => n + c[key], 0);
  console.log(
    '\n## `as` casts (as const aside; `x as unknown as T` is two in the total, one in its own line)',
  );
  console.log(
    `total ${sum('total')} in ${found.length} files; as never ${sum('asNever')}; as unknown as ${sum('asUnknownAs')}`,
  );
  const most = (key: keyof Omit<FileCasts, 'file'>, title: string): void => {
    const top = found
      .filter((c) => c[key] > 0)
      .sort((a, b) => b[key] - a[key] || a.file.localeCompare(b.file));
    console.log(`${title}:`);
    for (const c of top.slice(0, 5))
      console.log(`${String(c[key]).padStart(5)} ${relative(root, resolve(c.file))}`);
  };
  most('total', 'most casts');
  most('asNever', 'most `as never`');
  most('asUnknownAs', 'most `as unknown as`');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const tableOnly = args.includes('--deciders-table');
  const codeBase = loadCodeBase(resolve(args.find((a) => !a.startsWith('--')) ?? '.'));
  if (tableOnly) {
    const walks = decidingWalks(codeBase).map(({ route, walk }) => ({ route: route.route, walk }));
    for (const line of decidersMarkdown(codeBase.root, walks)) console.log(line);
    return;
  }
  console.log(`# code figures: ${codeBase.root}`);
  console.log(`production files: ${codeBase.files.length}`);
  importDistances(codeBase);
  requestWalks(codeBase);
  largestFiles(codeBase);
  castFigures(codeBase);
  console.log('\n## functions above complexity 15');
  const complex = await complexFunctions(codeBase.root, codeBase.files);
  console.log(`total ${complex.length}`);
  for (const line of complex) console.log(line);
}

/** Each value with how often it occurs, most first. */
function tally(values: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
