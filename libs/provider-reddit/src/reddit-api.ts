import {
  NO_TELEMETRY,
  ProviderFault,
  REAL_RETRY_ENV,
  platformCall,
  requestJson,
  type ProviderTelemetry,
  type RetryEnv,
  type RetryPolicy,
} from '@analyst/provider-core';

export const REDDIT_API_ROOT = 'https://oauth.reddit.com';
export const REDDIT_TOKEN_URL = 'https://www.reddit.com/api/v1/access_token';

export interface RedditApiOptions {
  clientId: string;
  clientSecret: string;
  /** Reddit asks for `<platform>:<app id>:<version> (by /u/<username>)`; generic agents are throttled. */
  userAgent: string;
  baseUrl?: string;
  tokenUrl?: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  retryEnv?: RetryEnv;
  telemetry?: ProviderTelemetry;
  now?: () => Date;
  /** Longest the client waits for the rate-limit window to reopen before giving up with a quota fault. */
  maxRateWaitMs?: number;
}

/**
 * Application-only OAuth2 (client credentials) and GET calls on the OAuth API host. Tracks the
 * `X-Ratelimit-Remaining`/`-Reset` headers: with nothing left it waits for a short reset and
 * reports a quota fault for a long one, instead of spending a call on a certain 429.
 */
export class RedditApi {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly telemetry: ProviderTelemetry;
  private readonly now: () => Date;
  private token: { value: string; expiresAt: number } | null = null;
  private remaining: number | null = null;
  private resetAt = 0;
  authProblem: string | null = null;

  constructor(private readonly options: RedditApiOptions) {
    this.baseUrl = (options.baseUrl ?? REDDIT_API_ROOT).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.now = options.now ?? (() => new Date());
  }

  /** `retries: false` leaves retrying to the caller (account discovery counts its own). */
  async get<T>(path: string, params: Record<string, string>, retries = true): Promise<T> {
    return platformCall(() => this.once<T>(path, params, true), {
      platform: 'reddit',
      telemetry: this.telemetry,
      retries,
      retry: this.options.retry,
      retryEnv: this.options.retryEnv,
    });
  }

  private async once<T>(path: string, params: Record<string, string>, mayRenew: boolean): Promise<T> {
    await this.respectRateLimit();
    const token = await this.accessToken();
    // Bounded label values: ids and names out of the path.
    const endpoint = path
      .replace(/^\/comments\/[^/]+$/, '/comments/{id}')
      .replace(/^\/(user|r)\/[^/]+/, '/$1/{name}');
    this.telemetry.call('reddit', endpoint);
    const response = await requestJson(
      `${this.baseUrl}${path}?${new URLSearchParams({ ...params, raw_json: '1' })}`,
      {
        timeoutMs: this.timeoutMs,
        headers: {
          authorization: `bearer ${token}`,
          'user-agent': this.options.userAgent,
          accept: 'application/json',
        },
      },
    );
    this.readRateLimit(response.headers);
    if (response.status >= 200 && response.status < 300) return response.body as T;
    if (response.status === 401 && mayRenew) {
      // Tokens last a day and may be revoked earlier: one fresh token, then a 401 is the credentials' fault.
      this.token = null;
      return this.once<T>(path, params, false);
    }
    throw this.fault(path, response.status);
  }

  private fault(path: string, status: number): ProviderFault {
    const what = `reddit ${path}: ${status}`;
    if (status === 429) {
      const retryAt = new Date(Math.max(this.resetAt, this.now().getTime() + 1_000));
      return new ProviderFault(
        'quota',
        `${what} rate limited (retry after ${retryAt.toISOString()})`,
        retryAt,
      );
    }
    if (status >= 500) return new ProviderFault('transient', `${what} server error`);
    if (status === 401) {
      this.authProblem = 'Reddit refused the access token issued for REDDIT_CLIENT_ID';
      return new ProviderFault('auth', this.authProblem);
    }
    // 403: private, quarantined or banned community; 404: no such post (or deleted).
    if (status === 403 || status === 404)
      return new ProviderFault(
        'gone',
        `${what} ${status === 403 ? 'forbidden (private or banned)' : 'not found'}`,
      );
    return new ProviderFault('invalid', `${what} refused the request`);
  }

  private readRateLimit(headers: Headers): void {
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = headers.get('x-ratelimit-reset');
    if (remaining === null || reset === null) return;
    this.remaining = Math.floor(Number(remaining));
    this.resetAt = this.now().getTime() + Number(reset) * 1000;
    this.telemetry.rateLimit('reddit', this.remaining, Number(reset));
  }

  private async respectRateLimit(): Promise<void> {
    if (this.remaining === null || this.remaining > 0) return;
    const wait = this.resetAt - this.now().getTime();
    if (wait <= 0) return;
    if (wait > (this.options.maxRateWaitMs ?? 2_000)) {
      const retryAt = new Date(this.resetAt);
      throw new ProviderFault(
        'quota',
        `reddit: rate-limit window spent (X-Ratelimit-Remaining 0; retry after ${retryAt.toISOString()})`,
        retryAt,
      );
    }
    await (this.options.retryEnv ?? REAL_RETRY_ENV).sleep(wait);
    this.remaining = null;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > this.now().getTime()) return this.token.value;
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    this.telemetry.call('reddit', 'access_token');
    const response = await requestJson(this.options.tokenUrl ?? REDDIT_TOKEN_URL, {
      method: 'POST',
      timeoutMs: this.timeoutMs,
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': this.options.userAgent,
      },
      body: 'grant_type=client_credentials',
    });
    const body = response.body as { access_token?: string; expires_in?: number } | null;
    if (response.status >= 500)
      throw new ProviderFault('transient', `reddit token endpoint: ${response.status}`);
    if (response.status !== 200 || !body?.access_token) {
      this.authProblem = `Reddit refused REDDIT_CLIENT_ID/REDDIT_CLIENT_SECRET at the token endpoint (${response.status})`;
      throw new ProviderFault('auth', this.authProblem);
    }
    this.authProblem = null;
    // Renew a minute early so a token never expires mid-fetch.
    this.token = {
      value: body.access_token,
      expiresAt: this.now().getTime() + ((body.expires_in ?? 3600) - 60) * 1000,
    };
    return this.token.value;
  }
}
