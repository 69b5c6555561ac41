import type { ReadModelSet } from '../libs/platform/src/projection/read-model-check';
import { identityReadModels } from '../libs/gateway/src/identity/identity.projectors';
import { ingestReadModels } from '../libs/ingest/src/projections';
import { ledgerReadModels } from '../libs/ledger/src/projections';
import { analysisReadModels } from '../libs/analysis/src/analysis-read-models';
import { samplingReadModels } from '../libs/sampling/src/sampling-read-models';

/**
 * Every read model the distributed services write to the shared read store, by service: the list
 * `analyst read-models check` and the e2e suites compare with the log. Each service registers its
 * own set's projectors, so a read model added to a service is checked without an edit here.
 */
export const SHARED_READ_MODELS: readonly ReadModelSet[] = [
  identityReadModels,
  ingestReadModels,
  ledgerReadModels,
  analysisReadModels,
  samplingReadModels,
];
