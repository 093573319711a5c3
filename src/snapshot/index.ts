export * from './format.js';
export { type RecordingApi, recordingApi } from './record.js';
export { replayApi } from './replay.js';
