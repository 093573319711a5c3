// Every operation's sandbox handler, in one table keyed by the operations table's ids: a row
// without a handler (or a handler without a row) fails the build, not a test run.
import type { OperationId } from '../api/operations.js';
import { handlers as datasets } from './api-datasets.js';
import { handlers as dataFiles } from './api-data-files.js';
import { handlers as discovery } from './api-discovery.js';
import { handlers as identity } from './api-identity.js';
import { handlers as metadata } from './api-metadata.js';
import { handlers as queues } from './api-queues.js';
import { handlers as schedules } from './api-schedules.js';
import { handlers as sharing } from './api-sharing.js';
import { handlers as workflows } from './api-workflows.js';
import type { Handler } from './context.js';

type Complete = { [K in OperationId]: Handler };

const all = { ...schedules, ...datasets, ...dataFiles, ...queues, ...metadata, ...workflows, ...discovery, ...identity, ...sharing };

/** The handler of every operation (the router answers each row of the table with its own). */
export const HANDLERS: Complete = all;
