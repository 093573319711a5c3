// How the binary's process ends. Its output is written synchronously (std-output.ts: in place,
// or through a stream made blocking, as Node already writes files and terminals; a pipe's
// writes are asynchronous on POSIX), so the process can end the moment the run does: left to
// end by itself, or given one more turn of the event loop, it first runs V8's pending tasks,
// such as finishing a garbage collection nobody will need. A start sits
// at the threshold of one (BENCHMARKS.md, 2026-12-03): finishing it cost a tenth of the CPU of
// `check --from` the demo snapshot on Node 24.

/** A standard stream whose handle (a pipe's, a terminal's) can be made to write synchronously. */
export type OutputStream = NodeJS.WritableStream & { writableLength: number; _handle?: { setBlocking?: (blocking: boolean) => unknown } };

/** Pipes written synchronously, as files and terminals are: nothing the run writes waits in the process. */
export function writeOutputsSynchronously(streams: OutputStream[]): void {
  // Node's own private handle API (it makes terminals synchronous with it); a Node without it
  // leaves the pipe as it was, and endProcess waits for what is queued.
  for (const stream of streams) stream._handle?.setBlocking?.(true);
}

/** Ends the process with process.exitCode, once nothing it wrote is still queued. */
export async function endProcess(streams: OutputStream[]): Promise<void> {
  // With nothing queued this awaits no turn of the event loop, only promises already settled.
  const queued = streams.filter((stream) => stream.writableLength > 0);
  await Promise.all(queued.map((stream) => new Promise((flushed) => stream.write('', flushed))));
  process.exit();
}
