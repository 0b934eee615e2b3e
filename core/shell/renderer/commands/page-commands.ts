import type { UiCommand, UiCommands } from '../../../protocol/command-protocol.js';
import type { Platform } from '../../../protocol/key-string.js';
import { type CommandContext, holds, parseWhen } from '../../../protocol/when-clause.js';
import type { Connection } from '../connection.js';
import { Emitter, type Unsubscribe } from '../emitter.js';

/** What the page knows when a command runs: the `when` keys, and the tab a host command acts on. */
export interface PageContext extends CommandContext {
  readonly tabId: string | null;
}

/** Runs one of the editor's own commands; `target` is what a button names (the tab its close button is on). */
export type CommandHandler = (target?: string) => void | Promise<void>;

export interface CommandOutcomes {
  readonly refused: (error: unknown) => void;
  readonly note: (message: string) => void;
}

/**
 * The page's commands (ADR 61): the host's list of every command with the keys in force, the
 * page's handlers of the editor's own, and `run`, which every button, key and palette entry goes
 * through. A plugin's command is run by the host. The list follows `commands.changed` (a plugin
 * turned on or off, a key rebound in any window), and is read again whenever the page gets the
 * focus back, so a keybindings.json edited by hand meanwhile applies.
 */
export class PageCommands {
  readonly platform: Platform = isMac() ? 'mac' : 'other';
  readonly #handlers = new Map<string, CommandHandler>();
  /** A plugin's command that runs in the page (ADR 72): the shown editor's view handles it, or nothing does. */
  #pluginHandler: (id: string) => CommandHandler | undefined = () => undefined;
  readonly #changed = new Emitter<UiCommands>();
  #list: UiCommands | null = null;
  /** Each refresh gets a number; an answer to an older one is dropped. */
  #generation = 0;
  /** While something takes the keys itself (the palette, a key being recorded), none dispatch. */
  #held = 0;

  constructor(
    private readonly connection: Connection,
    readonly context: () => PageContext,
    private readonly outcomes: CommandOutcomes,
  ) {
    connection.onCommandsChanged(() => void this.refresh());
    window.addEventListener('focus', () => void this.refresh());
    void this.refresh();
  }

  /** Handles one of the editor's own commands here; returns the undo (a plugin's panel gone). */
  handle(id: string, run: CommandHandler): Unsubscribe {
    this.#handlers.set(id, run);
    this.#changed.emit(this.#list ?? emptyList());
    return () => {
      if (this.#handlers.get(id) === run) this.#handlers.delete(id);
      this.#changed.emit(this.#list ?? emptyList());
    };
  }

  /** Where a plugin's `runsIn: page` command finds its handler: the shown tab's text view. */
  handlePluginCommands(find: (id: string) => CommandHandler | undefined): void {
    this.#pluginHandler = find;
  }

  /** A button runs its command when clicked, and shows the command's key in its tooltip. */
  bind(button: HTMLElement, id: string): Unsubscribe {
    const title = button.title;
    button.dataset.command = id;
    button.addEventListener('click', () => void this.run(id));
    const show = () => {
      const key = this.#list?.commands.find((c) => c.id === id)?.key;
      button.title = key ? `${title} (${key})` : title;
    };
    show();
    return this.#changed.on(show);
  }

  /** The commands a person can run now: the page's own it handles, and the running plugins'. */
  runnable(): UiCommand[] {
    return (this.#list?.commands ?? []).filter(
      (c) =>
        c.runsIn === 'host' ||
        this.#handlers.has(c.id) ||
        (c.pluginId !== null && this.#pluginHandler(c.id) !== undefined),
    );
  }

  list(): UiCommands | null {
    return this.#list;
  }

  onChange(listener: (list: UiCommands) => void): Unsubscribe {
    return this.#changed.on(listener);
  }

  /** The command a key press runs here and now: bound to it, runnable, its `when` holding. */
  forKey(key: string): UiCommand | undefined {
    if (this.#held > 0) return undefined;
    const context = this.context();
    return this.runnable().find((command) => command.key === key && this.applies(command, context));
  }

  applies(command: UiCommand, context: CommandContext = this.context()): boolean {
    if (command.when === null) return true;
    const parsed = parseWhen(command.when);
    return 'clause' in parsed && holds(parsed.clause, context);
  }

  /** Keys dispatch nothing until the returned release is called. */
  hold(): () => void {
    this.#held += 1;
    let released = false;
    return () => {
      if (!released) this.#held -= 1;
      released = true;
    };
  }

  async run(id: string, target?: string): Promise<void> {
    try {
      const local = this.#handlers.get(id) ?? this.#pluginPageHandler(id);
      if (local !== undefined) return await local(target);
      const { note } = await this.connection.request('commands.run', { id, tabId: this.context().tabId });
      if (note !== null) this.outcomes.note(note);
    } catch (error) {
      this.outcomes.refused(error);
    }
  }

  #pluginPageHandler(id: string): CommandHandler | undefined {
    const command = this.#list?.commands.find((c) => c.id === id);
    const runsHere = command !== undefined && command.pluginId !== null && command.runsIn === 'page';
    return runsHere ? this.#pluginHandler(id) : undefined;
  }

  /** Lists the commands afresh; `list` is the host's answer to a change just made, when there is one. */
  async refresh(list?: UiCommands): Promise<void> {
    const generation = ++this.#generation;
    try {
      list ??= await this.connection.request('commands.list', { platform: this.platform });
    } catch (error) {
      return this.outcomes.refused(error);
    }
    if (generation !== this.#generation) return;
    this.#list = list;
    this.#changed.emit(list);
  }
}

function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform);
}

function emptyList(): UiCommands {
  return { file: '', commands: [], conflicts: [], problems: [] };
}
