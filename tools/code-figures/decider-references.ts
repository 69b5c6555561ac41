import { resolve } from 'node:path';
import ts from 'typescript';

/** A decider a request reaches: its exported name, its file, and the files of the calls that lead there. */
export interface DeciderReference {
  name: string;
  file: string;
  /** The files of the call chain from the controller to the code that names the decider, then the decider's. */
  via: string[];
}

function moduleConstant(declaration: ts.Declaration): declaration is ts.VariableDeclaration {
  return (
    ts.isVariableDeclaration(declaration) &&
    ts.isVariableDeclarationList(declaration.parent) &&
    ts.isVariableStatement(declaration.parent.parent) &&
    ts.isSourceFile(declaration.parent.parent.parent)
  );
}

/**
 * Finds the deciders code names: module constants whose type is the core's `Decider` interface
 * (`export const postDecider: Decider<…> = …`). A module constant that is not a decider but names
 * one (a command handler's `{ decider: postDecider, streamOf }` kept in a constant) is looked
 * through, once.
 */
export class DeciderReferences {
  private readonly found = new Map<string, DeciderReference>();
  private readonly lookedThrough = new Set<ts.Node>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly isProduction: (file: string) => boolean,
    /** The files of the call chain being read, from the controller. */
    private readonly chain: () => string[],
  ) {}

  /** The deciders found so far, in the order first named. */
  get deciders(): DeciderReference[] {
    return [...this.found.values()];
  }

  /**
   * Records the deciders `fn` is part of: a decider's own `decide` or `evolve` called directly
   * (`decideRequestClaim(command, state)`) reaches that decider; another function of its file (the
   * stream's name, `analysisStream(id)`) does not.
   */
  composedOf(fn: ts.Node): void {
    const source = fn.getSourceFile();
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations)
        if (this.isDecider(declaration) && declaration.initializer && this.names(declaration.initializer, fn))
          this.record(declaration);
    }
  }

  /** Whether `node` names `fn` (the function itself, or the constant it initializes). */
  private names(node: ts.Node, fn: ts.Node): boolean {
    if (node === fn) return true;
    if (ts.isIdentifier(node)) {
      let symbol = this.checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const named = (symbol?.declarations ?? []).some(
        (d) => d === fn || (ts.isVariableDeclaration(d) && d.initializer === fn),
      );
      if (named) return true;
    }
    return ts.forEachChild(node, (child) => this.names(child, fn) || undefined) ?? false;
  }

  scan(node: ts.Node): void {
    if (ts.isIdentifier(node)) this.identifier(node);
    ts.forEachChild(node, (child) => this.scan(child));
  }

  private identifier(node: ts.Identifier): void {
    let symbol = this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.find(moduleConstant);
    if (!declaration) return;
    const file = resolve(declaration.getSourceFile().fileName);
    if (!this.isProduction(file)) return;
    if (this.isDecider(declaration)) this.record(declaration);
    else if (
      declaration.initializer &&
      !ts.isFunctionLike(declaration.initializer) &&
      !this.lookedThrough.has(declaration)
    ) {
      this.lookedThrough.add(declaration);
      this.scan(declaration.initializer);
    }
  }

  private record(declaration: ts.VariableDeclaration): void {
    const file = resolve(declaration.getSourceFile().fileName);
    const name = declaration.name.getText();
    const key = `${file}#${name}`;
    if (this.found.has(key)) return;
    const via = this.chain().filter((f, i, all) => f !== all[i - 1] && f !== file);
    this.found.set(key, { name, file, via: [...via, file] });
  }

  private isDecider(declaration: ts.VariableDeclaration): boolean {
    const type = this.checker.getTypeAtLocation(declaration.name);
    return type.aliasSymbol?.name === 'Decider' || type.getSymbol()?.name === 'Decider';
  }
}
