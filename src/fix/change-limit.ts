// How many changes a fix plan may hold before it is refused as a whole (fix/apply.ts), in a
// module of its own: `steward fix --help` names the default without loading the fixer.

/** `--max-changes` default: a larger plan is refused as a whole. */
export const MAX_CHANGES_DEFAULT = 25;
