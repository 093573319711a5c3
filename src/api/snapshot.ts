export * from './snapshot-format.js';
export { parseSnapshot, readSnapshot, snapshotLines, writeSnapshot } from './snapshot-lines.js';
export { type PageSpool, type RecordingApi, recordingApi, spooledRecorder, withPageSpool } from './snapshot-record.js';
export { replayApi } from './snapshot-replay.js';
