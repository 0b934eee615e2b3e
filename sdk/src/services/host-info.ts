export interface HostInfo {
  /** The vmark version. */
  readonly version: string;
  /** The app-data folder (`VMARK_HOME`). */
  readonly home: string;
}
