import type { PageOpen } from './panel.js';

/*
 * The editor view of a document kind (ADR 35). A plugin that registers a kind declares its
 * view in the manifest (`contributes.views: [{ kind, module }]`); the module, a browser ES
 * module under the plugin's `ui/`, exports `view`, one of two sorts:
 *
 * - a text view: CodeMirror extensions that core's editor mounts around the document's text
 *   (its collab sync, undo, keymap and theme stay core's). The module imports CodeMirror by its
 *   bare names, which the editor page maps to the one copy it serves (an import map): the view's
 *   extensions and the editor's must come from the same @codemirror/state.
 * - a custom view: `mount(element, api)` for a kind that is no text editor (a browser tab).
 *
 * The SDK is not browser code: `E` is CodeMirror's `Extension`, `H` the page's `HTMLElement`.
 */

/** What a view knows of the tab it shows (a tab a plugin keeps has no file and no text). */
export interface KindViewTab {
  readonly id: string;
  readonly title: string;
  /** Absolute path on disk; null for an untitled tab. */
  readonly filePath: string | null;
  readonly kind: string;
}

/**
 * A command of the plugin's that edits the editor it is run in (host API 1.10, ADR 72): declared
 * in the manifest with `runsIn: "page"`, run on the shown editor (`V`, CodeMirror's `EditorView`)
 * when the person presses its key or picks it in the palette. It returns whether it did anything.
 */
export type PageCommandHandler<V = unknown> = (view: V) => boolean;

/** A workspace file to show as an image: by its absolute path, or a wikilink embed's name from a note. */
export type ImageTarget = { readonly path: string } | { readonly embed: string; readonly note: string };

/** An image the host saved for the person (a paste, a drop): the file, and the link to it from the note. */
export interface SavedImage {
  readonly path: string;
  /** Relative to the note's folder, `/`-separated, spaces as `%20`: ready for `![](…)`. */
  readonly link: string;
}

/**
 * What the editor page gives a text view besides its tab: the workspace's images, saving a pasted
 * one, and the settings of the running plugins (ADR 74); its own plugin's view provider for the
 * kind, as a custom view's `request` and `subscribe`, and opening a file in its window (ADR 76).
 */
export interface TextViewApi extends PageOpen {
  /** The URL the page loads the image from; the host serves it only inside the workspace. */
  imageUrl(target: ImageTarget): string;
  /**
   * Saves an image (a `Blob`) into `folder` (the attachments setting: `/` the workspace root,
   * `./sub` beside the note, else under the root) under a new name; rejects with the host's reason.
   */
  saveImage(note: string, image: unknown, folder: string): Promise<SavedImage>;
  /** A setting's value now; undefined when no running plugin declares it. */
  setting(key: string): unknown;
  /** Called when any setting changed; returns the unsubscribe. */
  onSettingsChange(listener: () => void): () => void;
  request(method: string, params?: unknown): Promise<unknown>;
  subscribe(topic: string, listener: (data: unknown) => void): () => void;
}

/** A kind edited as text in core's CodeMirror editor. */
export interface TextKindView<E = unknown, V = unknown> {
  readonly type: 'text';
  /** The language, front matter display and whatever else holds in both modes. */
  extensions(tab: KindViewTab, api: TextViewApi): E;
  /** The Live (wysiwyg) mode's decorations; absent, the kind has Source mode only. */
  readonly live?: E;
  /** Handlers of the plugin's `runsIn: "page"` editor commands, by command id. */
  readonly commands?: Readonly<Record<string, PageCommandHandler<V>>>;
}

/**
 * The narrow door a custom view has into the editor: its tab, its text, refreshes, and its own
 * plugin's view provider (`request`, `subscribe`; host API 1.6).
 */
export interface KindViewApi {
  readonly tab: KindViewTab;
  /** The document's text as this window's editor holds it now (the host's, once synced). */
  text(): string;
  /** Called after every change of the text, the person's or the host's; returns the unsubscribe. */
  onTextChange(listener: () => void): () => void;
  /** Called when the editor asks the view to draw again (e.g. the tab is shown again). */
  onRefresh(listener: () => void): () => void;
  /** Calls one of the view provider's `actions`; rejects with the host's message. */
  request(method: string, params?: unknown): Promise<unknown>;
  /** Watches a topic of the view provider (`watch`); returns the unsubscribe, which stops it. */
  subscribe(topic: string, listener: (data: unknown) => void): () => void;
}

/** A kind that is not a text editor: the view owns `element` until its cleanup runs. */
export interface CustomKindView<H = unknown> {
  readonly type: 'custom';
  /** Draws the view; the cleanup it returns runs when the tab closes or the view goes. */
  mount(element: H, api: KindViewApi): void | (() => void);
}

/** What a view module exports as `view`. */
export type KindView<E = unknown, H = unknown, V = unknown> = TextKindView<E, V> | CustomKindView<H>;
