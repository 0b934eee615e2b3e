import type { UiCommand, UiCommands } from '../../../protocol/command-protocol.js';
import { keyStringOf } from '../../../protocol/key-string.js';
import type { PageCommands } from '../commands/page-commands.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';

/**
 * Settings' keyboard shortcuts (ADR 61): every command with its key, its default and a way to
 * change it — Change records the next key pressed (Esc cancels), Remove leaves it without a key,
 * Reset gives it its default back. A key two commands share is shown on both; what in
 * keybindings.json cannot be used is named at the top. The host writes the file.
 */
export class KeybindingsSection {
  readonly element: HTMLElement;
  /** The command whose new key is being recorded. */
  #recording: string | null = null;
  #release: (() => void) | undefined;
  #busy = false;

  constructor(
    private readonly commands: PageCommands,
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.element = element('section', 'settings-keybindings');
    commands.onChange(() => this.render());
    // Recorded in the capture phase, ahead of the key dispatcher and the dialog's own Esc.
    window.addEventListener('keydown', (event) => this.#record(event), { capture: true });
  }

  /** Reads the commands and keybindings.json afresh (it may have been edited by hand). */
  reload(): Promise<void> {
    return this.commands.refresh();
  }

  render(): void {
    const list = this.commands.list();
    this.element.replaceChildren(element('h3', 'settings-grants-title', 'Keyboard shortcuts'));
    if (list === null) return;
    for (const problem of list.problems) this.element.append(element('p', 'keybindings-problem', problem));
    this.element.append(
      element('p', 'setting-description', `Stored in ${list.file}. Change records the next key you press.`),
    );
    const titles = new Map(list.commands.map((c) => [c.id, `${c.category}: ${c.title}`]));
    for (const command of this.commands.runnable()) this.element.append(this.#row(command, list, titles));
  }

  #row(command: UiCommand, list: UiCommands, titles: ReadonlyMap<string, string>): HTMLElement {
    const row = element('div', 'setting-row keybinding-row');
    row.dataset.commandId = command.id;
    const text = element('div', 'setting-text');
    text.append(element('span', 'setting-title', `${command.category}: ${command.title}`));
    const meta = element('div', 'setting-meta');
    meta.append(
      element('code', 'setting-key', command.id),
      element('span', '', `Default: ${command.defaultKey ?? 'none'}`),
    );
    const others = list.conflicts
      .find((conflict) => conflict.key === command.key)
      ?.commandIds.filter((id) => id !== command.id);
    if (others !== undefined && others.length > 0) {
      row.classList.add('is-conflict');
      meta.append(
        element(
          'span',
          'keybinding-conflict',
          `${command.key} is also bound to ${others.map((id) => titles.get(id) ?? id).join(', ')}`,
        ),
      );
    }
    text.append(meta);
    const controls = element('div', 'setting-controls');
    const recording = this.#recording === command.id;
    controls.append(
      element('kbd', 'keybinding-key', recording ? 'Press a key…' : (command.key ?? '—')),
      this.#button('Change', 'keybinding-change', () => this.#startRecording(command.id)),
    );
    if (command.key !== null)
      controls.append(this.#button('Remove', 'keybinding-remove', () => void this.#set(command.id, null)));
    if (command.changed)
      controls.append(this.#button('Reset', 'keybinding-reset', () => void this.#reset(command.id)));
    row.append(text, controls);
    return row;
  }

  #button(label: string, className: string, run: () => void): HTMLButtonElement {
    const button = element('button', `button button-small button-quiet ${className}`, label);
    button.type = 'button';
    button.disabled = this.#busy;
    button.addEventListener('click', run);
    return button;
  }

  #startRecording(id: string): void {
    this.#release ??= this.commands.hold();
    this.#recording = id;
    this.render();
  }

  #stopRecording(): void {
    this.#recording = null;
    this.#release?.();
    this.#release = undefined;
    this.render();
  }

  #record(event: KeyboardEvent): void {
    const id = this.#recording;
    if (id === null) return;
    event.preventDefault();
    event.stopPropagation();
    if (event.key === 'Escape') return this.#stopRecording();
    const key = keyStringOf(event);
    // A modifier alone: wait for the key it modifies.
    if (key === null) return;
    this.#stopRecording();
    void this.#set(id, key);
  }

  async #set(id: string, key: string | null): Promise<void> {
    await this.#write(() =>
      this.connection.request('keybindings.set', { id, key, platform: this.commands.platform }),
    );
  }

  async #reset(id: string): Promise<void> {
    await this.#write(() =>
      this.connection.request('keybindings.reset', { id, platform: this.commands.platform }),
    );
  }

  async #write(request: () => Promise<UiCommands>): Promise<void> {
    this.#busy = true;
    this.render();
    try {
      await this.commands.refresh(await request());
    } catch (error) {
      this.refused(error);
    } finally {
      this.#busy = false;
      this.render();
    }
  }
}
