export * from './snapshot-format.js';
export { type RecordingApi, recordingApi } from './snapshot-record.js';
export { replayApi } from './snapshot-replay.js';
