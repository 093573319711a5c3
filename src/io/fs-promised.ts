// node:fs's callback API made promises, for the files a run reads: `node:fs/promises`
// loads eight more of Node's modules at a start (its file handles' readline, directory and watch
// support), none of which steward uses (~1.4 ms of a Node 24 start; test/cli/startup.test.ts).
import { readdir as readdirCallback, readFile as readFileCallback, stat as statCallback } from 'node:fs';
import { promisify } from 'node:util';

export const readFile = promisify(readFileCallback);
export const readdir = promisify(readdirCallback);
export const stat = promisify(statCallback);
