export {
  ACCOUNT_PLATFORMS,
  classifyAccountLink,
  classifyLink,
  classifyPostLink,
  normalizeLink,
} from './classify-link';
