// @actions/workflow-parser imports its JSON schemas without `with { type: 'json' }`, which
// Node's ESM loader rejects; esbuild bundles it (JSON included) into one module we can import.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TraceWriter } from '@actions/workflow-parser';
import type * as Actions from '@actions/workflow-parser/actions/index';
import { build } from 'esbuild';

export interface WorkflowParser {
  parseAction: typeof Actions.parseAction;
  convertActionTemplate: typeof Actions.convertActionTemplate;
  parseWorkflow: typeof import('@actions/workflow-parser').parseWorkflow;
  convertWorkflowTemplate: typeof import('@actions/workflow-parser').convertWorkflowTemplate;
  trace: TraceWriter;
}

export async function loadWorkflowParser(): Promise<WorkflowParser> {
  const dir = mkdtempSync(join(tmpdir(), 'steward-wfp-'));
  try {
    const outfile = join(dir, 'parser.mjs');
    await build({
      stdin: {
        contents: `export { parseAction, convertActionTemplate } from '@actions/workflow-parser/actions/index';
export { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } from '@actions/workflow-parser';`,
        resolveDir: process.cwd(),
        loader: 'js',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'error',
    });
    const mod = await import(pathToFileURL(outfile).href);
    return { ...mod, trace: new mod.NoOperationTraceWriter() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
