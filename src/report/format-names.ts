// The names a report's flags offer (`--format`, `--output`, `--group-by`, and the completion
// scripts) before a report exists: a command's flags are declared without loading a formatter
// (index.ts holds the formatters, one per format name: the compiler checks both lists are the same).

export const FORMATS = ['text', 'json', 'sarif', 'junit', 'markdown', 'github', 'html', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** What text, markdown and HTML group findings by (`--group-by`). */
export const GROUP_BY = ['policy', 'owner', 'instance'] as const;
export type GroupBy = (typeof GROUP_BY)[number];
