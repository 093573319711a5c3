// The format registry: `--format NAME` and `--output NAME=PATH` resolve here.
import type { FormatOptions, Formatter } from './formatter.js';
import { FORMATS, type Format } from './format-names.js';
import { formatCsv } from './csv.js';
import { formatGithub } from './github.js';
import { formatHtml } from './html.js';
import { formatJson, jsonReportChunks } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { Report } from '../core/model.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

/** One formatter per name of format-names.ts (a name without one, or one without a name, does not compile). */
const FORMATTERS: { readonly [F in Format]: Formatter } = {
  text: formatText,
  json: formatJson,
  sarif: formatSarif,
  junit: formatJunit,
  markdown: formatMarkdown,
  github: formatGithub,
  html: formatHtml,
  csv: formatCsv,
};

export { FORMATS, type Format };

/**
 * The report in pieces that each end a line, for a writer that hands each on as it comes: JSON
 * (whose resource ids grow with the instance) piece by piece, every other format whole.
 */
export function formatReportChunks(format: Format, report: Report, options: FormatOptions): Iterable<string> {
  return format === 'json' ? jsonReportChunks(report) : [formatReport(format, report, options)];
}

export function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name);
}

export function formatReport(format: Format, report: Report, options: FormatOptions): string {
  return FORMATTERS[format](report, options);
}

export { GROUP_BY, type FormatOptions, type Formatter, type GroupBy } from './formatter.js';
export { stoppedNote } from './formatter.js';
export {
  ANNOTATION_CAP,
  type Annotation,
  type AnnotationLevel,
  type AnnotationSelection,
  selectAnnotations,
  workflowCommand,
} from './github.js';
export { toJsonReport } from './json.js';
export { JOB_SUMMARY_MAX_BYTES, renderMarkdown } from './markdown.js';
export { blobUrlFromEnv, findingRepoLocation, insideRoot, policyRepoLocation, type RepoPlacement } from './repo-location.js';
export { toSarif } from './sarif.js';
export { TEXT_DEFAULT_WIDTH } from './text.js';
export { reportWithVisibleControls } from './visible-controls.js';
export { instanceReport, perInstance } from './instances.js';
