declare module 'wink-bm25-text-search' {
  interface Bm25Engine {
    defineConfig(config: {
      fldWeights: Record<string, number>;
      bm25Params?: { k1?: number; b?: number; k?: number };
    }): boolean;
    definePrepTasks(tasks: ((input: unknown) => unknown)[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number): [string, number][];
  }
  function bm25(): Bm25Engine;
  export = bm25;
}
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
