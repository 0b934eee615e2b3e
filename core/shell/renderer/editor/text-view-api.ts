import type { ImageTarget, SavedImage, TextViewApi } from '@vmark/sdk';
import type { UiSettings, UiSettingValue } from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { Emitter } from '../emitter.js';

/**
 * What the page gives every text view (ADR 74): the URLs of the workspace's images on this UI
 * server (with the page's token), saving a pasted image through it, and the running plugins'
 * settings, listed once and then kept from the host's `settings.changed` pushes.
 */
export class PageTextViewApi implements Pick<
  TextViewApi,
  'imageUrl' | 'saveImage' | 'setting' | 'onSettingsChange'
> {
  readonly #token = new URLSearchParams(location.search).get('token') ?? '';
  #values = new Map<string, UiSettingValue>();
  readonly #changed = new Emitter<void>();

  constructor(connection: Connection) {
    connection.onPanelMessage((message) => {
      if (message.type === 'settings.changed') this.#take(message.settings);
    });
    connection.request('settings.list', {}).then(
      (settings) => this.#take(settings),
      (error: unknown) => console.error('The settings could not be listed', error),
    );
  }

  imageUrl(target: ImageTarget): string {
    const query =
      'path' in target
        ? `/vault/file?path=${encodeURIComponent(target.path)}`
        : `/vault/embed?note=${encodeURIComponent(target.note)}&name=${encodeURIComponent(target.embed)}`;
    return `${query}&token=${encodeURIComponent(this.#token)}`;
  }

  async saveImage(note: string, image: unknown, folder: string): Promise<SavedImage> {
    if (!(image instanceof Blob)) throw new TypeError('saveImage: the image must be a Blob');
    const url =
      `/vault/attachment?note=${encodeURIComponent(note)}&folder=${encodeURIComponent(folder)}` +
      `&type=${encodeURIComponent(image.type)}&token=${encodeURIComponent(this.#token)}`;
    // The body streams from the Blob; the page goes on while it travels.
    const response = await fetch(url, { method: 'POST', body: image });
    if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
    return (await response.json()) as SavedImage;
  }

  setting(key: string): unknown {
    return this.#values.get(key);
  }

  onSettingsChange(listener: () => void): () => void {
    return this.#changed.on(listener);
  }

  #take(settings: UiSettings): void {
    this.#values = new Map(settings.groups.flatMap((g) => g.settings.map((s) => [s.key, s.value] as const)));
    this.#changed.emit();
  }
}

const apis = new WeakMap<Connection, PageTextViewApi>();

/** The page's one text view API for its connection. */
export function textViewApi(connection: Connection): PageTextViewApi {
  let api = apis.get(connection);
  if (api === undefined) apis.set(connection, (api = new PageTextViewApi(connection)));
  return api;
}
