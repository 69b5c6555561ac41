import ts from 'typescript';

/** `as` casts of one file (`as const` aside): all of them, and the two that say the least. */
export interface FileCasts {
  file: string;
  /** Every `x as T` and `<T>x`; `x as unknown as T` counts two. */
  total: number;
  /** `x as never`: fits any parameter, checks nothing. */
  asNever: number;
  /** `x as unknown as T` (counted once): a type the compiler would refuse directly. */
  asUnknownAs: number;
}

function unparenthesized(node: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(node) ? unparenthesized(node.expression) : node;
}

export function fileCasts(source: ts.SourceFile): FileCasts {
  const counts: FileCasts = { file: source.fileName, total: 0, asNever: 0, asUnknownAs: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isTypeAssertionExpression(node)) counts.total++;
    if (ts.isAsExpression(node) && node.type.getText(source) !== 'const') {
      counts.total++;
      if (node.type.kind === ts.SyntaxKind.NeverKeyword) counts.asNever++;
      const inner = unparenthesized(node.expression);
      if (ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword) counts.asUnknownAs++;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/** The casts of every file that has one. */
export function casts(program: ts.Program, files: string[]): FileCasts[] {
  return files
    .map((file) => program.getSourceFile(file))
    .filter((source): source is ts.SourceFile => source !== undefined)
    .map(fileCasts)
    .filter((c) => c.total > 0);
}
