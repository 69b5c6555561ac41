/** The value at a dotted path of a document (`a.b.c`), or undefined where the path stops. */
export function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
