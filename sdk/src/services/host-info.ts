export interface HostInfo {
  /** The vmark version. */
  readonly version: string;
  /** The app-data folder (`VMARK_HOME`). */
  readonly home: string;
  /**
   * True in a host that serves the editor's UI (`vmark serve`, the desktop app), where a person
   * may watch what a plugin shows; false under `vmark mcp` on its own and the other commands.
   */
  readonly editor?: boolean;
}
