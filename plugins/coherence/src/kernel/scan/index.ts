export * from './walk-workspace.js';
export * from './walk-changes.js';
export * from './file-digest.js';
export * from './object-index.js';
export * from './git-state.js';
export * from './git-classifier.js';
export * from './reconcile.js';
export * from './scan.js';
