import type { UiSettings } from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { Emitter, type Unsubscribe } from '../emitter.js';
import { type Appearance, appearanceOf, fontStacks } from './appearance.js';

const DARK = '(prefers-color-scheme: dark)';

/**
 * The editor page's look (ADR 72), from the Editor settings: the theme on the root element
 * (`data-theme`, light or dark; System follows `prefers-color-scheme` and its changes), the fonts,
 * size and line width as CSS variables, the CJK face. Follows `settings.changed`, so a change in
 * Settings (any window) applies at once; tells its listeners (the editors: spell check).
 */
export class PageAppearance {
  #appearance: Appearance = appearanceOf(null);
  readonly #changed = new Emitter<Appearance>();
  readonly #faces: HTMLStyleElement;
  readonly #dark: MediaQueryList;
  readonly #defaults: { text: string; mono: string };

  constructor(
    private readonly connection: Connection,
    private readonly root: HTMLElement,
    refused: (error: unknown) => void,
  ) {
    const style = getComputedStyle(root);
    this.#defaults = {
      text: style.getPropertyValue('--font-text').trim(),
      mono: style.getPropertyValue('--font-mono').trim(),
    };
    this.#faces = document.createElement('style');
    this.#faces.dataset.vmark = 'cjk-face';
    document.head.append(this.#faces);
    this.#dark = window.matchMedia(DARK);
    this.#dark.addEventListener('change', () => this.#apply());
    connection.onPanelMessage((message) => {
      if (message.type === 'settings.changed') this.#take(message.settings);
    });
    this.#apply();
    connection.request('settings.list', {}).then(
      (settings) => this.#take(settings),
      (error: unknown) => refused(error),
    );
  }

  get current(): Appearance {
    return this.#appearance;
  }

  onChange(listener: (appearance: Appearance) => void): Unsubscribe {
    return this.#changed.on(listener);
  }

  #take(settings: UiSettings): void {
    this.#appearance = appearanceOf(settings);
    this.#apply();
    this.#changed.emit(this.#appearance);
  }

  #apply(): void {
    const a = this.#appearance;
    const dark = a.theme === 'dark' || (a.theme === 'system' && this.#dark.matches);
    this.root.dataset.theme = dark ? 'dark' : 'light';
    const stacks = fontStacks(a, this.#defaults);
    const set = (name: string, value: string | null) =>
      value === null ? this.root.style.removeProperty(name) : this.root.style.setProperty(name, value);
    set('--font-text', stacks.text);
    set('--font-mono', stacks.mono);
    set('--editor-font-size', `${a.fontSize}px`);
    set('--editor-line-width', `${a.lineWidth}px`);
    this.#faces.textContent = stacks.faces;
  }
}
