// What a route handler sees of one request and of the instance.
import type { OperationId } from '../api/operations.js';
import type { Reply } from './http.js';
import type { SandboxOptions, SandboxState, SwitchName } from './types.js';

export type Switches = Required<Pick<SandboxOptions, SwitchName>>;

export interface RequestContext {
  /** Path parameters, each decoded from exactly one path segment. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request body as text ('' when none). */
  body: string;
  state: SandboxState;
  switches: Switches;
}

export type Handler = (ctx: RequestContext) => Reply;

/** Some operations' handlers (an api-*.ts file's `handlers`; handlers.ts checks they cover the table). */
export type Handlers = Partial<Record<OperationId, Handler>>;
