import { webhookNetworkPolicyFromEnv } from '@analyst/webhooks';
import { notifierDeliveryOptionsFromEnv } from './delivery/notifier-delivery-options';
import { eventStreamSettingsFromEnv } from './events/event-stream-settings';

/**
 * The notifier's own variables' problems, each with its variable named, for the app's start to
 * report beside the platform's and exit 2 before anything opens (the modules read the same
 * variables again when they start, and would otherwise fail later, one at a time).
 */
export function notifierConfigProblems(env: NodeJS.ProcessEnv): string[] {
  const readers = [
    () => webhookNetworkPolicyFromEnv(env),
    () => notifierDeliveryOptionsFromEnv(env),
    () => eventStreamSettingsFromEnv(env),
  ];
  const problems: string[] = [];
  for (const read of readers) {
    try {
      read();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return problems;
}
