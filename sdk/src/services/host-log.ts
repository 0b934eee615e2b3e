/** The severities of RFC 5424, as MCP names them, least severe first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export interface LogOptions {
  /**
   * The MCP connection (`ToolCaller.connectionId`) whose call the message is about: only that
   * client is told. Without it the message is host-wide and every connected client is told.
   */
  readonly connectionId?: string;
}

/**
 * What the host would tell a person at its terminal: written to stderr (below `info`, not) and
 * sent to every connected MCP client as `notifications/message` at or above the level it set.
 * A message names files and reasons, never a document's text, a typed value or a secret.
 */
export interface HostLog {
  log(level: LogLevel, message: string, options?: LogOptions): void;
}
