export * from './time.js';
export * from './bodies.js';
export * from './entry.js';
export * from './segments.js';
export * from './quarantine.js';
export * from './read-ledger.js';
export * from './append-entry.js';
export * from './init-layout.js';
