import type { Platform } from '@analyst/contracts';

/** A link that passed classification. `link` is what the client sent; `normalized` is the dedupe key. */
export interface LinkCandidate {
  link: string;
  normalized: string;
  platform: Platform;
}
