/**
 * Figures about the code's shape, for reviews that compare a tree before and after a change:
 * how far each command route's controller is from its decider, how many files a use case spans,
 * the largest production files, functions above complexity 15 and `as` casts.
 *
 *   npm run code-figures            # this tree
 *   npm run code-figures -- DIR     # another checkout (a worktree sharing this node_modules)
 *
 * Production files are `libs/* /src` and `apps/* /src` without the generated client schema. An
 * import edge goes from a file to the file that declares what it imports (barrels are seen
 * through), so the path from a controller to a decider is the path a reader follows.
 */
import { ESLint } from 'eslint';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const GENERATED = new Set(['libs/client/src/schema.ts']);
/** What every use case leans on and a reader does not follow: the vocabulary, the core, the Nest glue. */
const SHARED_LIBS = new Set(['contracts', 'eventsourcing', 'platform']);
const COMMAND_DECORATOR = /@(Post|Put|Patch|Delete)\((?:'([^']*)')?\)/;
const CONTROLLER_DECORATOR = /@Controller\((?:'([^']*)')?\)/;

/** The command routes a file's Nest controllers serve, `POST /content/posts/add`, from their decorators. */
function commandRoutes(text: string): string[] {
  const routes: string[] = [];
  let prefix = '';
  for (const line of text.split('\n')) {
    const controller = CONTROLLER_DECORATOR.exec(line);
    if (controller) prefix = controller[1] ?? '';
    const command = COMMAND_DECORATOR.exec(line);
    if (command) {
      const path = [prefix, command[2] ?? ''].filter((p) => p !== '').join('/');
      routes.push(`${command[1].toUpperCase()} /${path}`);
    }
  }
  return routes;
}

function productionFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.spec.ts'))
        files.push(path);
    }
  };
  for (const top of ['libs', 'apps'])
    for (const project of readdirSync(join(root, top))) {
      const src = join(root, top, project, 'src');
      if (existsSync(src)) walk(src);
    }
  return files.filter((f) => !GENERATED.has(relative(root, f))).sort();
}

/** Each file's edges: the production files declaring what it imports. */
function importGraph(program: ts.Program, files: Set<string>): Map<string, Set<string>> {
  const checker = program.getTypeChecker();
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const edges = new Set<string>();
    graph.set(file, edges);
    if (!source) continue;
    // Only values are followed: a type names a shape, not a step the request takes.
    const add = (node: ts.Node): void => {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (!symbol || !(symbol.flags & ts.SymbolFlags.Value)) return;
      for (const declaration of symbol?.declarations ?? []) {
        const target = resolve(declaration.getSourceFile().fileName);
        if (target !== file && files.has(target)) edges.add(target);
      }
    };
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !statement.importClause || statement.importClause.isTypeOnly)
        continue;
      const clause = statement.importClause;
      if (clause.name) add(clause.name);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) if (!element.isTypeOnly) add(element.name);
      if (bindings && ts.isNamespaceImport(bindings)) add(statement.moduleSpecifier);
    }
  }
  return graph;
}

function libOf(root: string, file: string): string {
  return relative(root, file).split('/')[1];
}

interface UseCase {
  route: string;
  controller: string;
  /** Files read after the controller up to the nearest decider, the decider included; null when none is reached. */
  toDecider: number | null;
  decider: string | null;
  /** Production files reachable from the controller, the shared vocabulary, core and glue aside. */
  files: number;
  deciders: number;
}

function useCases(root: string, graph: Map<string, Set<string>>): UseCase[] {
  const found: UseCase[] = [];
  for (const controller of graph.keys()) {
    for (const route of commandRoutes(readFileSync(controller, 'utf8'))) {
      const distance = new Map<string, number>([[controller, 0]]);
      const queue = [controller];
      while (queue.length > 0) {
        const file = queue.shift() as string;
        if (file !== controller && SHARED_LIBS.has(libOf(root, file))) continue;
        for (const next of graph.get(file) ?? []) {
          if (distance.has(next)) continue;
          distance.set(next, (distance.get(file) as number) + 1);
          queue.push(next);
        }
      }
      const reached = [...distance.keys()].filter((f) => !SHARED_LIBS.has(libOf(root, f)));
      const deciders = reached.filter((f) => f.endsWith('.decider.ts'));
      const nearest = deciders.sort((a, b) => (distance.get(a) as number) - (distance.get(b) as number))[0];
      found.push({
        route,
        controller: relative(root, controller),
        toDecider: nearest ? (distance.get(nearest) as number) : null,
        decider: nearest ? relative(root, nearest) : null,
        files: reached.length,
        deciders: deciders.length,
      });
    }
  }
  return found.sort((a, b) => a.route.localeCompare(b.route));
}

function asCasts(program: ts.Program, files: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of files) {
    let count = 0;
    const visit = (node: ts.Node): void => {
      const isConst = ts.isAsExpression(node) && node.type.getText() === 'const';
      if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node)) count++;
      ts.forEachChild(node, visit);
    };
    const source = program.getSourceFile(file);
    if (source) visit(source);
    if (count > 0) counts.set(file, count);
  }
  return counts;
}

async function complexFunctions(root: string, files: string[]): Promise<string[]> {
  const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { complexity: ['warn', 15] } } });
  const results = await eslint.lintFiles(files);
  return results.flatMap((r) =>
    r.messages
      .filter((m) => m.ruleId === 'complexity')
      .map((m) => `${relative(root, r.filePath)}:${m.line} ${m.message}`),
  );
}

async function main(): Promise<void> {
  const root = resolve(process.argv[2] ?? '.');
  const files = productionFiles(root);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('no tsconfig.json');
  const program = ts.createProgram(files, config.options);
  const graph = importGraph(program, new Set(files));

  console.log(`# code figures: ${root}`);
  console.log(`production files: ${files.length}`);

  console.log('\n## command routes: files from the controller to its nearest decider');
  const cases = useCases(root, graph);
  for (const c of cases)
    console.log(
      `${c.route.padEnd(44)} to decider ${String(c.toDecider ?? '-').padStart(2)}  files ${String(c.files).padStart(3)}  deciders ${c.deciders}  ${c.controller} -> ${c.decider ?? 'none'}`,
    );
  const reaching = cases.filter((c) => c.toDecider !== null).map((c) => c.toDecider as number);
  console.log(
    `routes ${cases.length}, reaching a decider ${reaching.length}, most files to a decider ${Math.max(...reaching)}, median files spanned ${median(cases.map((c) => c.files))}`,
  );

  console.log('\n## largest production files (lines)');
  const sizes = files.map((f) => ({
    file: relative(root, f),
    lines: readFileSync(f, 'utf8').split('\n').length,
  }));
  for (const s of sizes.sort((a, b) => b.lines - a.lines).slice(0, 10))
    console.log(`${String(s.lines).padStart(5)} ${s.file}`);
  console.log(`files over 300 lines: ${sizes.filter((s) => s.lines > 300).length}`);

  console.log('\n## `as` casts (as const aside)');
  const casts = asCasts(program, files);
  const total = [...casts.values()].reduce((a, b) => a + b, 0);
  console.log(`total ${total} in ${casts.size} files; most:`);
  for (const [file, n] of [...casts].sort((a, b) => b[1] - a[1]).slice(0, 5))
    console.log(`${String(n).padStart(5)} ${relative(root, file)}`);

  console.log('\n## functions above complexity 15');
  const complex = await complexFunctions(root, files);
  console.log(`total ${complex.length}`);
  for (const line of complex) console.log(line);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
