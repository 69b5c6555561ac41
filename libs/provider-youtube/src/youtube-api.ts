import {
  ProviderFault,
  platformCall,
  requestJson,
  NO_TELEMETRY,
  type ProviderTelemetry,
  type RetryEnv,
  type RetryPolicy,
} from '@analyst/provider-core';
import { nextQuotaReset } from './quota-window';

export const YOUTUBE_API_ROOT = 'https://www.googleapis.com/youtube/v3';

export interface YouTubeApiOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  telemetry?: ProviderTelemetry;
  now?: () => Date;
}

/** The error envelope of Google APIs: `{ error: { code, message, errors: [{ domain, reason, message }] } }`. */
interface GoogleError {
  error?: { code?: number; message?: string; errors?: { reason?: string; domain?: string }[] };
}

/** Reasons that mean the section or video cannot be read (not a fault of ours or of the quota). */
export const GONE_REASONS = new Set([
  'videoNotFound',
  'forbidden',
  'commentsDisabled',
  'channelNotFound',
  'playlistNotFound',
  'commentNotFound',
]);
const QUOTA_REASONS = new Set([
  'quotaExceeded',
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'dailyLimitExceeded',
]);
const AUTH_REASONS = new Set([
  'keyInvalid',
  'keyExpired',
  'accessNotConfigured',
  'ipRefererBlocked',
  'forbidden_key',
]);

/** A `gone` fault that keeps the API's reason, so callers can tell commentsDisabled from videoNotFound. */
/** Google's first reason for a refusal ('' when none) and its message (the status when none). */
function refusalText(status: number, body: GoogleError | null): { reason: string; message: string } {
  return {
    reason: body?.error?.errors?.[0]?.reason ?? '',
    message: body?.error?.message ?? `HTTP ${status}`,
  };
}

/** What a refused call means, from its status and Google's first reason. */
function refusalOf(status: number, reason: string): 'transient' | 'quota' | 'auth' | 'gone' | 'invalid' {
  if (status >= 500 || (status === 429 && !QUOTA_REASONS.has(reason))) return 'transient';
  if (QUOTA_REASONS.has(reason) || status === 429) return 'quota';
  if (AUTH_REASONS.has(reason) || status === 401) return 'auth';
  if (GONE_REASONS.has(reason) || status === 404) return 'gone';
  return 'invalid';
}

export class YouTubeGone extends ProviderFault {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super('gone', message);
  }
}

/**
 * GET calls on the Data API v3 with the API key. Each list call costs 1 quota unit (charged by the
 * API even when it fails). Maps the error envelope to faults; retries transient ones per `retry`.
 */
export class YouTubeApi {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly telemetry: ProviderTelemetry;
  private readonly now: () => Date;
  /** The last auth refusal, cleared by the next answered call: what /readyz reports. */
  authProblem: string | null = null;
  unitsSpent = 0;

  constructor(private readonly options: YouTubeApiOptions) {
    this.baseUrl = (options.baseUrl ?? YOUTUBE_API_ROOT).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.now = options.now ?? (() => new Date());
  }

  /** One list call; `retries: false` leaves retrying to the caller (account discovery counts its own). */
  async list<T>(endpoint: string, params: Record<string, string>, retries = true): Promise<T> {
    return platformCall(() => this.once<T>(endpoint, params), {
      platform: 'youtube',
      telemetry: this.telemetry,
      retries,
      retry: this.options.retry,
      retryEnv: this.options.retryEnv,
    });
  }

  private async once<T>(endpoint: string, params: Record<string, string>): Promise<T> {
    const url = `${this.baseUrl}/${endpoint}?${new URLSearchParams({ ...params, key: this.options.apiKey })}`;
    this.telemetry.call('youtube', endpoint);
    const response = await requestJson(url, {
      timeoutMs: this.timeoutMs,
      headers: { accept: 'application/json' },
    });
    if (response.status < 400 || response.status >= 500 || !this.isAuth(response.body)) {
      this.unitsSpent++;
      this.telemetry.quotaSpent('youtube', 1);
    }
    if (response.status >= 200 && response.status < 300) {
      this.authProblem = null;
      return response.body as T;
    }
    throw this.fault(endpoint, response.status, response.body as GoogleError | null);
  }

  private isAuth(body: unknown): boolean {
    return (
      (body as GoogleError | null)?.error?.errors?.some((e) => AUTH_REASONS.has(e.reason ?? '')) ?? false
    );
  }

  private fault(endpoint: string, status: number, body: GoogleError | null): ProviderFault {
    const { reason, message } = refusalText(status, body);
    const what = `youtube ${endpoint}: ${status} ${reason || 'error'}: ${message}`;
    switch (refusalOf(status, reason)) {
      case 'transient':
        return new ProviderFault('transient', what);
      case 'quota': {
        const retryAt = this.quotaReopensAt(reason);
        return new ProviderFault('quota', `${what} (retry after ${retryAt.toISOString()})`, retryAt);
      }
      case 'auth':
        this.authProblem = `the YouTube Data API refused YOUTUBE_API_KEY (${reason || status}): ${message}`;
        return new ProviderFault('auth', this.authProblem);
      case 'gone':
        return new YouTubeGone(reason || 'notFound', what);
      case 'invalid':
        return new ProviderFault('invalid', what);
    }
  }

  /** The daily quota reopens at Pacific midnight; a per-minute rate limit sooner, but a short hold is cheap to redo. */
  private quotaReopensAt(reason: string): Date {
    return reason === 'quotaExceeded' || reason === 'dailyLimitExceeded'
      ? nextQuotaReset(this.now())
      : new Date(this.now().getTime() + 60_000);
  }
}
