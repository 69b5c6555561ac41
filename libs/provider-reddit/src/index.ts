export { RedditProvider } from './reddit-provider';
export { RedditApi, REDDIT_API_ROOT, REDDIT_TOKEN_URL, type RedditApiOptions } from './reddit-api';
