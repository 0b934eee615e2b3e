import type { UiPlugin } from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { confirmDisable } from '../dialogs/disable-plugin-dialog.js';
import { ToolbarModal } from '../dialogs/toolbar-modal.js';
import { element } from '../element.js';

const SOURCES: Record<UiPlugin['source'], string> = {
  builtin: 'Built-in',
  user: 'User',
  npm: 'npm',
  inline: 'In memory',
};

/**
 * The plugin manager: every plugin the host found, with its version, where it
 * came from, whether it runs, what is wrong with it, and what it contributes;
 * a switch enables or disables it live (turning one off asks first, naming what goes with it). It follows the host's changes, whoever
 * made them (another window, `vmark plugins` in a terminal).
 */
export class PluginManager {
  readonly #modal: ToolbarModal;
  readonly #list: HTMLElement;
  #plugins: readonly UiPlugin[] = [];
  /** Plugins whose switch was flipped and whose change is on its way. */
  readonly #busy = new Set<string>();

  constructor(
    container: HTMLElement,
    button: HTMLButtonElement,
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#modal = new ToolbarModal(container, button, {
      id: 'plugin-manager',
      className: 'plugin-manager',
      title: 'Plugins',
    });
    this.#list = element('div', 'plugin-list');
    this.#modal.dialog.append(this.#list);
    connection.onPanelMessage((message) => {
      if (message.type !== 'plugins.changed') return;
      this.#plugins = message.plugins;
      this.#render();
    });
  }

  async open(): Promise<void> {
    try {
      this.#plugins = (await this.connection.request('plugins.list', {})).plugins;
    } catch (error) {
      this.refused(error);
      return;
    }
    this.#render();
    this.#modal.show();
  }

  async #setEnabled(plugin: UiPlugin, enabled: boolean): Promise<void> {
    // Turning one off takes tools, documents and panels with it: the person confirms what goes first.
    if (!enabled && !(await confirmDisable(document.body, plugin))) {
      this.#render();
      return;
    }
    this.#busy.add(plugin.id);
    this.#render();
    try {
      this.#plugins = (
        await this.connection.request('plugins.setEnabled', { id: plugin.id, enabled })
      ).plugins;
    } catch (error) {
      this.refused(error);
    } finally {
      this.#busy.delete(plugin.id);
      this.#render();
    }
  }

  #render(): void {
    const focused =
      document.activeElement instanceof HTMLElement ? document.activeElement.dataset.pluginId : undefined;
    this.#list.replaceChildren(...this.#plugins.map((plugin) => this.#card(plugin)));
    // Re-rendering must not take the keyboard focus away from the switch just used.
    if (focused !== undefined) {
      this.#list.querySelector<HTMLElement>(`input[data-plugin-id="${CSS.escape(focused)}"]`)?.focus();
    }
  }

  #card(plugin: UiPlugin): HTMLElement {
    const card = element('section', 'plugin-card');
    card.dataset.pluginId = plugin.id;
    card.classList.toggle('is-disabled', !plugin.enabled);

    const head = element('div', 'plugin-head');
    const names = element('div', 'plugin-names');
    const name = element('div', 'plugin-name', plugin.name);
    const meta = element('div', 'plugin-meta');
    meta.append(
      element('code', 'plugin-id', plugin.id),
      element('span', 'plugin-version', plugin.version),
      element('span', 'badge', SOURCES[plugin.source]),
      this.#status(plugin),
    );
    names.append(name, meta);

    const label = element('label', 'switch');
    const toggle = element('input', 'switch-input');
    toggle.type = 'checkbox';
    toggle.setAttribute('role', 'switch');
    toggle.dataset.pluginId = plugin.id;
    toggle.checked = plugin.enabled;
    toggle.disabled = this.#busy.has(plugin.id);
    toggle.setAttribute('aria-label', `${plugin.enabled ? 'Disable' : 'Enable'} ${plugin.name}`);
    toggle.addEventListener('change', () => void this.#setEnabled(plugin, toggle.checked));
    label.append(toggle, element('span', 'switch-track'));
    head.append(names, label);
    card.append(head);

    if (plugin.diagnostics.length > 0) {
      const list = element('ul', 'plugin-diagnostics');
      for (const d of plugin.diagnostics)
        list.append(element('li', `diagnostic diagnostic-${d.severity}`, d.message));
      card.append(list);
    }
    const contributes = element('dl', 'plugin-contributes');
    for (const [term, names] of [
      ['Tools', plugin.tools],
      ['Documents', plugin.kinds],
      ['Commands', plugin.commands],
      ['Panels', plugin.panels],
    ] as const) {
      if (names.length === 0) continue;
      const chips = element('dd', 'chips');
      chips.append(...names.map((n) => element('code', 'chip', n)));
      contributes.append(element('dt', 'plugin-term', term), chips);
    }
    if (contributes.childElementCount > 0) card.append(contributes);
    return card;
  }

  #status(plugin: UiPlugin): HTMLElement {
    if (this.#busy.has(plugin.id))
      return element('span', 'plugin-status', plugin.enabled ? 'Disabling…' : 'Enabling…');
    if (!plugin.enabled) return element('span', 'plugin-status', 'Disabled');
    if (plugin.active) return element('span', 'plugin-status is-active', 'Active');
    return element('span', 'plugin-status is-failed', 'Not running');
  }
}
