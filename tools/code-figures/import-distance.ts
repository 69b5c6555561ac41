import { resolve } from 'node:path';
import ts from 'typescript';
import type { Route } from './routes';
import { isShared, type CodeBase } from './program';

/**
 * Each file's edges: the production files declaring the values it imports (barrels are seen
 * through). Types are not followed: a type names a shape, not a step the request takes.
 */
export function importGraph({ program, files }: CodeBase): Map<string, Set<string>> {
  const checker = program.getTypeChecker();
  const production = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const edges = new Set<string>();
    graph.set(file, edges);
    if (!source) continue;
    const add = (node: ts.Node): void => {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (!symbol || !(symbol.flags & ts.SymbolFlags.Value)) return;
      for (const declaration of symbol.declarations ?? []) {
        const target = resolve(declaration.getSourceFile().fileName);
        if (target !== file && production.has(target)) edges.add(target);
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

/** How far a route's controller is from a decider along imports, and how many files its imports span. */
export interface ImportReach {
  /** Import steps from the controller to the nearest `*.decider.ts`, the decider included; null when none is reached. */
  toDecider: number | null;
  decider: string | null;
  /** Production files the controller reaches by imports, the shared vocabulary, core and glue aside. */
  files: number;
  /** `*.decider.ts` files among them. */
  deciders: number;
}

/** Breadth first over the import graph from the controller, not through the shared libraries. */
export function importReach(codeBase: CodeBase, graph: Map<string, Set<string>>, route: Route): ImportReach {
  const { root } = codeBase;
  const distance = new Map<string, number>([[route.controller, 0]]);
  const queue = [route.controller];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (file !== route.controller && isShared(root, file)) continue;
    for (const next of graph.get(file) ?? []) {
      if (distance.has(next)) continue;
      distance.set(next, (distance.get(file) as number) + 1);
      queue.push(next);
    }
  }
  const reached = [...distance.keys()].filter((f) => !isShared(root, f));
  const deciders = reached.filter((f) => f.endsWith('.decider.ts'));
  const nearest = deciders.sort((a, b) => (distance.get(a) as number) - (distance.get(b) as number))[0];
  return {
    toDecider: nearest ? (distance.get(nearest) as number) : null,
    decider: nearest ?? null,
    files: reached.length,
    deciders: deciders.length,
  };
}
