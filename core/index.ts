export { createHost, type CreateHostOptions, type Host } from './composition/host.js';
export type { HostOptions } from './tokens/host-options.js';
export type { PluginCandidate, PluginSource } from './plugins/discovery.js';
export type { PluginReport } from './plugins/plugin-host.js';
export { VMARK_VERSION } from './tokens/version.js';
