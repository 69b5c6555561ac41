/** A configuration the process cannot start with; its message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
