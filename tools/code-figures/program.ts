import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Generated code: nobody reads it to follow a request. */
const GENERATED = new Set(['libs/client/src/schema.ts']);
/** What every use case leans on and a reader does not follow: the vocabulary, the core, the Nest glue. */
export const SHARED_LIBS = new Set(['contracts', 'eventsourcing', 'platform']);

/** The tree being measured: its production files and a TypeScript program over them. */
export interface CodeBase {
  root: string;
  /** Absolute paths of `libs/* /src` and `apps/* /src` files, specs, declarations and generated code aside. */
  files: string[];
  program: ts.Program;
}

export function productionFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.spec.ts'))
        files.push(path);
    }
  };
  for (const top of ['libs', 'apps']) {
    if (!existsSync(join(root, top))) continue;
    for (const project of readdirSync(join(root, top))) {
      const src = join(root, top, project, 'src');
      if (existsSync(src)) walk(src);
    }
  }
  return files.filter((f) => !GENERATED.has(relative(root, f))).sort();
}

/** The production files of `root`, compiled with its tsconfig.json (path aliases included). */
export function loadCodeBase(root: string): CodeBase {
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
  if (!config) throw new Error(`no tsconfig.json in ${root}`);
  return { root, files, program: ts.createProgram(files, config.options) };
}

/** The library or app a file belongs to: `platform` for `libs/platform/src/…`. */
export function projectOf(root: string, file: string): string {
  return relative(root, file).split('/')[1];
}

export function isShared(root: string, file: string): boolean {
  return SHARED_LIBS.has(projectOf(root, file));
}
