/**
 * The version of the host API this SDK describes. A plugin's manifest names the
 * range it works with in `engines.host`; the host refuses plugins outside it.
 * Bump the minor for additions, the major for anything that breaks a plugin.
 */
export const HOST_API_VERSION = '1.13.0';

/** The tool-surface protocol of the original VMark MCP server that clients may test for. */
export const MCP_SURFACE_PROTOCOL = '0.3.0';
