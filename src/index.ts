// The package entry (dist/index.js): the library API.
export * from './library/index.js';
