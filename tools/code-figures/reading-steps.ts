import ts from 'typescript';

/** A piece of code a reader opens: a function, method or constructor with a body, or a class's shape. */
export type Readable = ts.FunctionLikeDeclaration | ts.ClassDeclaration;

/** Where a reader goes from a piece of code, and at which position of it the step is read. */
export interface ReadingStep {
  target: Readable;
  position: number;
  /**
   * For `this.x.method()` where `method` is inherited: the constructor of `x`'s own class, which a
   * reader opens when the method itself is not followed (`this.claims.handle()` on a class extending
   * the core's CommandHandler, whose constructor names the decider).
   */
  receiver?: ts.ConstructorDeclaration;
}

function withBody(declaration: ts.Node | undefined): ts.FunctionLikeDeclaration | undefined {
  if (!declaration || !ts.isFunctionLike(declaration) || ts.isJSDocSignature(declaration)) return undefined;
  const fn = declaration as ts.FunctionLikeDeclaration;
  return fn.body ? fn : undefined;
}

function symbolOf(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol;
}

/**
 * The declaration, with its body, of what a call or `new` runs: through `this.x.method()` to the
 * method of `x`'s class, and from an overload to its implementation. Undefined for what has no body
 * to read here (an interface's method, a function-typed parameter, an implicit constructor).
 */
function calledDeclaration(
  checker: ts.TypeChecker,
  call: ts.CallExpression | ts.NewExpression,
): ts.FunctionLikeDeclaration | undefined {
  const declaration = checker.getResolvedSignature(call)?.declaration;
  if (!declaration || ts.isJSDocSignature(declaration)) return undefined;
  const direct = withBody(declaration);
  if (direct) return direct;
  const name = (declaration as ts.SignatureDeclaration).name;
  const overloads = name ? symbolOf(checker, name)?.declarations : undefined;
  return overloads?.map(withBody).find((d) => d !== undefined);
}

/** The constructor, with its body, of the class a value is typed by. */
function constructorOfType(
  checker: ts.TypeChecker,
  value: ts.Expression,
): ts.ConstructorDeclaration | undefined {
  const owner = checker.getTypeAtLocation(value).getSymbol()?.declarations?.find(ts.isClassDeclaration);
  return owner?.members.find(
    (m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined,
  );
}

/** The constructor of the class `call`'s receiver is typed by, when the called method is declared elsewhere. */
function receiverConstructor(
  checker: ts.TypeChecker,
  call: ts.CallExpression,
  target: ts.FunctionLikeDeclaration,
): ts.ConstructorDeclaration | undefined {
  if (!ts.isPropertyAccessExpression(call.expression)) return undefined;
  const constructor = constructorOfType(checker, call.expression.expression);
  return constructor && constructor.parent !== target.parent ? constructor : undefined;
}

/** `this.x` passed as an argument (`this.run(this.teams, command)`): the constructor of x's class. */
function injectedArgument(
  checker: ts.TypeChecker,
  argument: ts.Expression,
): ts.ConstructorDeclaration | undefined {
  if (!ts.isPropertyAccessExpression(argument) || argument.expression.kind !== ts.SyntaxKind.ThisKeyword)
    return undefined;
  return constructorOfType(checker, argument);
}

/** A function or class named as a value (a callback `rows.map(toView)`, a DTO `plainToInstance(Dto, body)`). */
function namedValue(checker: ts.TypeChecker, node: ts.Node): Readable | undefined {
  const name = ts.isPropertyAccessExpression(node) ? node.name : node;
  for (const declaration of symbolOf(checker, name)?.declarations ?? []) {
    if (ts.isClassDeclaration(declaration)) return declaration;
    const fn = withBody(declaration);
    if (fn) return fn;
    const initializer =
      ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)
        ? declaration.initializer
        : undefined;
    if (initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)))
      return initializer;
  }
  return undefined;
}

/** The position a reader reads a call at: the called name (`x.a().b()` reads `a` before `b`). */
function calleePosition(call: ts.CallExpression | ts.NewExpression): number {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) ? callee.name.getStart() : callee.getStart();
}

/** The class a type annotation names (`selection!: SelectionDto`), unwrapping arrays. */
function annotatedClass(
  checker: ts.TypeChecker,
  type: ts.TypeNode | undefined,
): ts.ClassDeclaration | undefined {
  if (!type) return undefined;
  if (ts.isArrayTypeNode(type)) return annotatedClass(checker, type.elementType);
  if (!ts.isTypeReferenceNode(type)) return undefined;
  return symbolOf(checker, type.typeName)?.declarations?.find(ts.isClassDeclaration);
}

/**
 * The steps read in a function's body, in source order: every call and `new` (nested callbacks'
 * included, as they are read in place), every function or class passed as an argument, and the
 * class of an injected member passed as one.
 */
function bodySteps(checker: ts.TypeChecker, fn: ts.FunctionLikeDeclaration): ReadingStep[] {
  const steps: ReadingStep[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const target = calledDeclaration(checker, node);
      const receiver =
        target && ts.isCallExpression(node) ? receiverConstructor(checker, node, target) : undefined;
      if (target) steps.push({ target, position: calleePosition(node), receiver });
      for (const argument of node.arguments ?? []) {
        if (!ts.isIdentifier(argument) && !ts.isPropertyAccessExpression(argument)) continue;
        const named = namedValue(checker, argument) ?? injectedArgument(checker, argument);
        if (named) steps.push({ target: named, position: argument.getStart() });
      }
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return steps;
}

/**
 * The steps read in a class's shape (a DTO): the calls in its decorators and property initializers
 * (a custom rule `@IsPostFilters()`), and the classes it names (a nested DTO, the DTO it extends), by
 * annotation (`selection!: SelectionDto`), as a value (`@Type(() => SelectionDto)`) or in its
 * `extends`. Method bodies are read when called.
 */
function shapeSteps(checker: ts.TypeChecker, shape: ts.ClassDeclaration): ReadingStep[] {
  const steps: ReadingStep[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && !ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const target = calledDeclaration(checker, node);
      if (target) steps.push({ target, position: calleePosition(node) });
    }
    if (ts.isIdentifier(node) && (node.parent as ts.NamedDeclaration).name !== node) {
      const named = namedValue(checker, node);
      if (named && ts.isClassDeclaration(named) && named !== shape)
        steps.push({ target: named, position: node.getStart() });
    }
    ts.forEachChild(node, visit);
  };
  for (const decorator of ts.getDecorators(shape) ?? []) visit(decorator);
  for (const clause of shape.heritageClauses ?? []) visit(clause);
  for (const member of shape.members) visit(member);
  return steps;
}

/** Where a reader goes from `readable`, in the order the steps are read. */
export function readingSteps(checker: ts.TypeChecker, readable: Readable): ReadingStep[] {
  const steps = ts.isClassDeclaration(readable)
    ? shapeSteps(checker, readable)
    : bodySteps(checker, readable);
  return steps.sort((a, b) => a.position - b.position);
}

/** The classes a controller method's parameters are declared as: the DTOs Nest validates before the method runs. */
export function parameterClasses(checker: ts.TypeChecker, method: ts.MethodDeclaration): ReadingStep[] {
  return method.parameters.flatMap((parameter) => {
    const target = annotatedClass(checker, parameter.type);
    return target ? [{ target, position: parameter.getStart() }] : [];
  });
}
