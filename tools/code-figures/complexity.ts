import { ESLint } from 'eslint';
import { relative } from 'node:path';

/** Functions above complexity 15, as ESLint's `complexity` rule reports them: `file:line message`. */
export async function complexFunctions(root: string, files: string[]): Promise<string[]> {
  const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { complexity: ['warn', 15] } } });
  const results = await eslint.lintFiles(files);
  return results.flatMap((r) =>
    r.messages
      .filter((m) => m.ruleId === 'complexity')
      .map((m) => `${relative(root, r.filePath)}:${m.line} ${m.message}`),
  );
}
