export { YouTubeProvider } from './youtube-provider';
export { YouTubeApi, YOUTUBE_API_ROOT, type YouTubeApiOptions } from './youtube-api';
export { nextQuotaReset } from './quota-window';
