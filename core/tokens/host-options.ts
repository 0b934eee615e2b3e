/** How one host is started (by the CLI, a test, or the desktop shell). */
export interface HostOptions {
  /** The app-data folder: settings, plugin state, port files. */
  readonly home: string;
  /** Folders searched for built-in plugins (each holding `<id>/manifest.json`). */
  readonly builtinPluginDirs: readonly string[];
  /** Whether `$VMARK_HOME/plugins/*` is searched for user plugins. */
  readonly userPlugins: boolean;
  /**
   * Watch the plugin state file and the user and npm plugin folders, so that `vmark plugins
   * enable|disable` and a plugin added or removed there reach a running host.
   */
  readonly watchPluginState: boolean;
}
