import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { DeciderReferences, type DeciderReference } from './decider-references';
import { isShared, type CodeBase } from './program';
import { parameterClasses, readingSteps, type Readable, type ReadingStep } from './reading-steps';

/** A request followed from its controller method as a reader follows it: a static reading order, not a runtime trace. */
export interface RequestWalk {
  /** The files in the order the reader is in them; a new entry each time the reader moves to another file. */
  path: string[];
  /** Distinct production files on the path, shared libraries aside. */
  files: string[];
  /** Entries of the path that come back to a file the reader left earlier. */
  returns: number;
  /** Functions, methods, constructors and class shapes read. */
  read: number;
  /** Files of the shared libraries (contracts, core, platform) the request calls into, not followed. */
  shared: string[];
  /**
   * Deciders reached, in the order first reached: named by the code read or by the classes whose
   * methods it calls, or made of a function read (a decider's own `decide` called directly).
   */
  deciders: DeciderReference[];
}

/** How many entries of a reading path come back to a file that was left earlier. */
export function returnsOf(path: string[]): number {
  const seen = new Set<string>();
  let returns = 0;
  for (const file of path) {
    if (seen.has(file)) returns++;
    seen.add(file);
  }
  return returns;
}

/** Whether a function is nested in one already read (read in place, with the calls around it). */
function within(node: ts.Node, read: Set<ts.Node>): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent)
    if (read.has(n) && ts.isFunctionLike(n)) return true;
  return false;
}

/**
 * Follows a controller method depth first: first the classes of its parameters (the DTOs Nest
 * validates before the method runs), then every call of its body in source order, each resolved
 * by the type checker to the declaration it runs (through DI-injected members typed by a class),
 * each function read once, the first time it is called. Shared libraries are not followed, nor is
 * a call to an interface's method (a port), nor a message on the bus. Before each step into a
 * callee the reader is back at the call site, so a caller's file enters the path again only when
 * the reader follows another call from it.
 */
export function walkRequest(codeBase: CodeBase, entry: ts.MethodDeclaration): RequestWalk {
  const { root, program } = codeBase;
  const production = new Set(codeBase.files);
  const checker = program.getTypeChecker();
  const reading: Readable[] = [];
  const fileOf = (node: ts.Node): string => resolve(node.getSourceFile().fileName);
  const deciders = new DeciderReferences(
    checker,
    (file) => production.has(file),
    () => reading.map(fileOf),
  );
  const read = new Set<ts.Node>();
  const classesScanned = new Set<ts.Node>();
  const shared = new Set<string>();
  const path: string[] = [];
  const enter = (file: string): void => {
    if (path[path.length - 1] !== file) path.push(file);
  };
  const follow = (from: string, step: ReadingStep): void => {
    const { target } = step;
    if (read.has(target) || within(target, read)) return;
    const file = fileOf(target);
    if (!production.has(file)) return;
    if (isShared(root, file)) {
      shared.add(file);
      if (step.receiver) follow(from, { target: step.receiver, position: step.position });
      return;
    }
    enter(from);
    readCode(target);
  };
  // A method's class is how it reaches its decider: a command handler names it in its constructor.
  const scanClassOf = (readable: Readable): void => {
    const owner = readable.parent;
    if (!owner || !ts.isClassDeclaration(owner) || classesScanned.has(owner)) return;
    classesScanned.add(owner);
    for (const member of owner.members)
      if (ts.isConstructorDeclaration(member) || ts.isPropertyDeclaration(member)) deciders.scan(member);
  };
  const readCode = (readable: Readable): void => {
    read.add(readable);
    reading.push(readable);
    const file = fileOf(readable);
    enter(file);
    deciders.composedOf(readable);
    deciders.scan(readable);
    scanClassOf(readable);
    for (const step of readingSteps(checker, readable)) follow(file, step);
    reading.pop();
  };

  const controllerFile = fileOf(entry);
  read.add(entry);
  enter(controllerFile);
  for (const step of parameterClasses(checker, entry)) follow(controllerFile, step);
  readCode(entry);
  const files = [...new Set(path)];
  return {
    path,
    files,
    returns: returnsOf(path),
    read: read.size,
    shared: [...shared].sort(),
    deciders: deciders.deciders,
  };
}

/** The path as `a.ts > b.ts > a.ts`, each file relative to the root. */
export function describePath(root: string, path: string[]): string {
  return path.map((file) => relative(root, file)).join(' > ');
}
