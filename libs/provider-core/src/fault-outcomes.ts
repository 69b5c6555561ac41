import { ProviderUnavailableError, type DiscoveredPost, type FetchResult } from '@analyst/contracts';
import { ProviderFault } from './provider-fault';

/**
 * What a post fetch that threw tells the pipeline: a spent quota holds the post until its window
 * reopens, a gone post is unreachable (`goneReason` words why), any other fault failed. A throw
 * that is not a ProviderFault (a bug, an answer we could not read) failed, prefixed by `platform`.
 */
export function fetchFaultResult(
  error: unknown,
  platform: string,
  goneReason: (fault: ProviderFault) => string = (fault) => fault.message,
): FetchResult {
  if (!(error instanceof ProviderFault)) return { status: 'failed', reason: `${platform}: ${String(error)}` };
  if (error.kind === 'quota')
    return {
      status: 'holding',
      reason: error.message,
      ...(error.retryAt ? { retryAt: error.retryAt.toISOString() } : {}),
    };
  if (error.kind === 'gone') return { status: 'unreachable', reason: goneReason(error) };
  return { status: 'failed', reason: error.message };
}

/**
 * An account's discovery, with its faults as the discovery worker takes them: a gone account has
 * no posts; any other fault means the platform is unavailable (the worker retries); anything that
 * is not a ProviderFault propagates unchanged.
 */
export async function discoverWithFaults(
  discover: () => Promise<DiscoveredPost[]>,
): Promise<DiscoveredPost[]> {
  try {
    return await discover();
  } catch (error) {
    if (!(error instanceof ProviderFault)) throw error;
    if (error.kind === 'gone') return [];
    throw new ProviderUnavailableError(error.message);
  }
}
