import ts from 'typescript';

const COMMAND_METHODS = new Set(['Post', 'Put', 'Patch', 'Delete']);
const READ_METHODS = new Set(['Get']);

/** A route and the controller method that serves it. */
export interface Route {
  /** `POST /content/posts/add`: the verb and the controller's prefix joined with the method's path. */
  route: string;
  /** Absolute path of the controller's file. */
  controller: string;
  method: ts.MethodDeclaration;
}

/**
 * The decorator's name and the path it gives: `@Post('posts/add')` -> Post, posts/add; `@Post()` ->
 * Post, ''. Null for a path computed at run time (the gateway's proxy forwards lists of routes).
 */
function decoratorCall(decorator: ts.Decorator): { name: string; path: string } | null {
  const call = decorator.expression;
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) return null;
  const [first] = call.arguments;
  if (first && !ts.isStringLiteralLike(first)) return null;
  return { name: call.expression.text, path: first ? first.text : '' };
}

function decoratorsOf(node: ts.Node): { name: string; path: string }[] {
  const decorators = ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
  return decorators.map(decoratorCall).filter((d): d is { name: string; path: string } => d !== null);
}

/** Every POST, PUT, PATCH and DELETE method of the Nest controllers in `files`, from their decorators. */
export function commandRoutes(program: ts.Program, files: string[]): Route[] {
  return routes(program, files, COMMAND_METHODS);
}

/** Every GET method of the Nest controllers in `files` (some reach a decider: a job's read records its outcomes). */
export function readRoutes(program: ts.Program, files: string[]): Route[] {
  return routes(program, files, READ_METHODS);
}

function routes(program: ts.Program, files: string[], verbs: Set<string>): Route[] {
  const routes: Route[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement)) continue;
      const controller = decoratorsOf(statement).find((d) => d.name === 'Controller');
      if (!controller) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member)) continue;
        for (const verb of decoratorsOf(member).filter((d) => verbs.has(d.name))) {
          const path = [controller.path, verb.path].filter((p) => p !== '').join('/');
          routes.push({ route: `${verb.name.toUpperCase()} /${path}`, controller: file, method: member });
        }
      }
    }
  }
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}
