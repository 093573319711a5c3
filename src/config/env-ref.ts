// `env:NAME` in steward.yaml: a value held by the environment variable NAME. Tokens, webhook URLs
// and keys, and database URLs are secrets, so the file (committed) names only their variables.

/** The prefix of an `env:NAME` reference. */
export const ENV_REF = 'env:';

/** The schema pattern of a value that must be an `env:NAME` reference. */
export const ENV_REF_PATTERN = '^env:[A-Za-z_][A-Za-z0-9_]*$';

const ENV_REF_RE = new RegExp(ENV_REF_PATTERN);

/** Whether `value` is an `env:NAME` reference, as the schema requires one. */
export const isEnvRef = (value: string): boolean => ENV_REF_RE.test(value);

/** The variable an `env:NAME` reference names. */
export const envVariableOf = (ref: string): string => ref.slice(ENV_REF.length);
