/** What is wrong with each plugin, kept for its report and told to the person's terminal and the MCP clients. */
import type { LogHub } from '../log/log-hub.js';
import type { Diagnostic } from './diagnostics.js';
import { type PluginEntry, pluginIdOf } from './plugin-entry.js';

export class PluginProblems {
  /** From the last resolution: replaced on every reconciliation. */
  #resolution = new Map<string, readonly Diagnostic[]>();
  /** From activating and deactivating: kept until that candidate is activated again. */
  readonly #runtime = new Map<string, readonly Diagnostic[]>();

  constructor(private readonly log: LogHub) {}

  /** A plugin's problem, for the person's terminal and the connected MCP clients. */
  tell(entry: PluginEntry, { severity, message }: Diagnostic): void {
    this.log.log('plugins', severity, `plugin ${pluginIdOf(entry)}: ${message}`);
  }

  /** A problem met while activating or deactivating `entry`. */
  add(entry: PluginEntry, diagnostic: Diagnostic): void {
    this.#runtime.set(entry.key, [...(this.#runtime.get(entry.key) ?? []), diagnostic]);
    this.tell(entry, diagnostic);
  }

  /** Whether `key`'s run-time problems already say `message`. */
  hasSaid(key: string, message: string): boolean {
    return this.#runtime.get(key)?.some((d) => d.message === message) ?? false;
  }

  /** Forgets the run-time problems of `key` (it is activated or deactivated again). */
  clearRuntime(key: string): void {
    this.#runtime.delete(key);
  }

  /** Takes a new resolution's problems; they are found again on every pass, and told when they are new. */
  resolved(entries: readonly PluginEntry[], problems: ReadonlyMap<string, readonly Diagnostic[]>): void {
    const known = this.#resolution;
    this.#resolution = new Map(problems);
    for (const entry of entries) {
      const before = known.get(entry.key) ?? [];
      for (const d of this.#resolution.get(entry.key) ?? [])
        if (!before.some((b) => b.message === d.message)) this.tell(entry, d);
    }
  }

  /** Everything wrong with `entry`: its manifest's, its resolution's and its run time's problems. */
  of(entry: PluginEntry): Diagnostic[] {
    return [
      ...entry.diagnostics,
      ...(this.#resolution.get(entry.key) ?? []),
      ...(this.#runtime.get(entry.key) ?? []),
    ];
  }
}
