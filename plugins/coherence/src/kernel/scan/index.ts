export * from './walk-workspace.js';
export * from './object-index.js';
export * from './reconcile.js';
export * from './scan.js';
