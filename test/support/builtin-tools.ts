/** The tools of the built-in plugins, in the order a client lists them (activation order). */
export const BUILTIN_TOOLS = [
  'browser',
  'browser_read',
  'session',
  'workspace',
  'document',
  'selection',
  'coherence',
  'coherence_resolve',
  'workflow',
];
