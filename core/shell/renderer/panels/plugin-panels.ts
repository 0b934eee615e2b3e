import { panelToggleId } from '../../../protocol/builtin-commands.js';
import type { PanelApi as SdkPanelApi } from '@vmark/sdk';
import type { UiPluginPanel } from '../../../protocol/panel-protocol.js';
import type { PageCommands } from '../commands/page-commands.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';
import { Emitter } from '../emitter.js';
import { importPluginModule } from '../plugin-module.js';
import type { Shell } from '../shell.js';
import type { PageLink } from '../page-link.js';

/** What the page hands a panel's module: the SDK's `PanelApi`. */
type PanelApi = SdkPanelApi;

type Cleanup = () => void;

/**
 * The panels the active plugins contribute (ADR 20): one toolbar button each,
 * which shows the panel in its slot; the panel's module is imported from the
 * UI server (same origin, token-checked, so the page's CSP holds) the first
 * time it is shown. The list follows the plugin manager: a disabled plugin's
 * panels are unmounted and removed at once. Each panel's button runs its toggle command
 * (`vmark.panel.<plugin>.<panel>`), which the palette and a key can run too.
 */
export class PluginPanels {
  readonly #views = new Map<string, PluginPanelView>();
  /** Each sync gets a number; an answer to an older one is dropped. */
  #generation = 0;

  constructor(
    private readonly shell: Shell,
    private readonly connection: Connection,
    private readonly commands: PageCommands,
    private readonly refused: (error: unknown) => void,
    private readonly link: PageLink,
  ) {
    connection.onPanelMessage((message) => {
      if (message.type === 'plugins.changed') void this.#sync();
      if (message.type === 'pluginPanels.refresh')
        this.#views.get(keyOf(message.pluginId, message.panelId))?.refresh();
    });
    void this.#sync();
  }

  async #sync(): Promise<void> {
    const generation = ++this.#generation;
    let panels: UiPluginPanel[];
    try {
      panels = (await this.connection.request('pluginPanels.list', {})).panels;
    } catch (error) {
      return this.refused(error);
    }
    if (generation !== this.#generation) return;
    const wanted = new Map(panels.map((p) => [keyOf(p.pluginId, p.panelId), p]));
    for (const [key, view] of this.#views) {
      if (wanted.get(key)?.modulePath === view.panel.modulePath) continue;
      view.dispose();
      this.#views.delete(key);
    }
    for (const [key, panel] of wanted) {
      if (!this.#views.has(key))
        this.#views.set(
          key,
          new PluginPanelView(panel, this.shell, this.connection, this.commands, this.link),
        );
    }
  }
}

/** One plugin panel: its button, its frame in the slot, and its module once mounted. */
class PluginPanelView {
  readonly #frame: HTMLElement;
  readonly #body: HTMLElement;
  readonly #button: HTMLButtonElement;
  readonly #slot: HTMLElement;
  readonly #refresh = new Emitter<void>();
  #mounted: Promise<Cleanup | undefined> | undefined;
  #disposed = false;
  readonly #unhandle: () => void;

  constructor(
    readonly panel: UiPluginPanel,
    shell: Shell,
    private readonly connection: Connection,
    commands: PageCommands,
    private readonly link: PageLink,
  ) {
    const slots = { sidebar: shell.sidebarSlot, bottom: shell.bottomSlot, right: shell.panelSlot };
    this.#slot = slots[panel.slot];
    this.#frame = element('section', 'side-panel plugin-panel');
    this.#frame.dataset.pluginId = panel.pluginId;
    this.#frame.dataset.panelId = panel.panelId;
    this.#frame.hidden = true;
    const header = element('header', 'side-panel-header');
    header.append(element('h2', 'side-panel-title', panel.title));
    this.#body = element('div', 'plugin-panel-body');
    this.#frame.append(header, this.#body);
    this.#slot.append(this.#frame);

    this.#button = element('button', 'tool-button', panel.title);
    this.#button.type = 'button';
    this.#button.dataset.pluginPanel = keyOf(panel.pluginId, panel.panelId);
    this.#button.title = `${panel.title} (plugin ${panel.pluginId})`;
    this.#button.setAttribute('aria-pressed', 'false');
    const command = panelToggleId(panel.pluginId, panel.panelId);
    const unhandle = commands.handle(command, () => this.#toggle());
    const unbind = commands.bind(this.#button, command);
    this.#unhandle = () => {
      unhandle();
      unbind();
    };
    // Plugins' buttons go before the plugin manager's, which stays last.
    shell.toolButtons.insertBefore(this.#button, shell.pluginsButton);
  }

  refresh(): void {
    this.#refresh.emit();
  }

  dispose(): void {
    this.#disposed = true;
    this.#unhandle();
    void this.#mounted?.then((cleanup) => runCleanup(cleanup));
    this.#frame.remove();
    this.#button.remove();
    this.#showSlot();
  }

  #toggle(): void {
    this.#frame.hidden = !this.#frame.hidden;
    this.#button.setAttribute('aria-pressed', String(!this.#frame.hidden));
    this.#showSlot();
    if (!this.#frame.hidden) this.#mounted ??= this.#mount();
  }

  /** The slot is shared with other panels: shown while any of them is. */
  #showSlot(): void {
    this.#slot.hidden = [...this.#slot.children].every((child) => (child as HTMLElement).hidden);
  }

  async #mount(): Promise<Cleanup | undefined> {
    const { pluginId, panelId, modulePath } = this.panel;
    const api: PanelApi = {
      request: async (method, params) =>
        (await this.connection.request('pluginPanels.request', { pluginId, panelId, method, params })).value,
      onRefresh: (listener) => this.#refresh.on(listener),
      open: (filePath, place) => this.link.open(filePath, place),
      activeTab: () => this.link.activeTab(),
      onActiveTab: (listener) => this.link.onActiveTab(listener),
    };
    try {
      const module = await importPluginModule(modulePath);
      if (typeof module.mount !== 'function') throw new Error(`${modulePath} does not export mount()`);
      if (this.#disposed) return undefined;
      const cleanup = (module.mount as (element: HTMLElement, api: PanelApi) => unknown)(this.#body, api);
      return typeof cleanup === 'function' ? (cleanup as Cleanup) : undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#body.replaceChildren(
        element('p', 'plugin-panel-error', `The panel of plugin ${pluginId} failed to load: ${message}`),
      );
      return undefined;
    }
  }
}

/** A panel's own teardown must not stop the page removing it. */
function runCleanup(cleanup: Cleanup | undefined): void {
  try {
    cleanup?.();
  } catch (error) {
    console.error('A plugin panel failed to clean up', error);
  }
}

function keyOf(pluginId: string, panelId: string): string {
  return `${pluginId}/${panelId}`;
}
