export * from './revision-graph.js';
export * from './contexts.js';
export * from './claims.js';
export * from './project-edge.js';
