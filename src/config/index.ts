export { expandGlob } from './glob.js';
export { BUILTIN_CONFIG, type FoundConfig, findConfig } from './find.js';
export { DEFAULT_CONCURRENCY, DEFAULT_FAIL_ON, DEFAULT_POLICIES, ENV, loadConfig, POLICIES_FLAG_ORIGIN } from './load.js';
export { BUILTIN_POLICIES, builtinPolicyDir, DEFAULT_CONFIG_FILE, DATABASE_URL_REFUSED, DEFAULT_HISTORY_FILE, demoConfigPath, isDatabaseUrl, packageRoot, packageVersion } from './paths.js';
export { displayPath } from '../core/display-path.js';
export { CONFIG_SCHEMA } from './schema.js';
export type { Config, ConfigOverrides, LoadConfigOptions, NotifyTarget } from './types.js';
export { TOKEN_IN_FILE_MESSAGE } from './validate.js';
export { type OwnerRule, type RoutedSubject, teamOf } from './owners.js';
