import type { Disposable } from './lifecycle.js';

/*
 * Panels that plugins contribute (ADR 20). A panel has two halves: a provider
 * in the host (registered with `context.registerPanel`), which answers the
 * panel's requests, and a browser module (`ui/…js`, declared in the manifest),
 * which the editor imports and mounts. They talk only through `PanelApi`.
 */

/** Answers one kind of request from the panel's page; `params` is untrusted JSON. */
export type PanelHandler = (params: unknown) => unknown;

/** The host half of a panel declared in the manifest's `contributes.panels`. */
export interface PanelProvider {
  /** The panel's id, as in the manifest. */
  readonly id: string;
  /** What the panel shows: `api.request('load', params)`. The result must be JSON. */
  load(params: unknown): unknown;
  /** Further requests by name: `api.request(name, params)`. */
  readonly actions?: Readonly<Record<string, PanelHandler>>;
}

/** A registered provider: `refresh()` tells every open copy of the panel to load again. */
export interface PanelRegistration extends Disposable {
  refresh(): void;
}

/** The tab a window shows, as a panel or a view sees it (host API 1.11.0). */
export interface PageTab {
  readonly id: string;
  /** Absolute path on disk; null for an untitled tab or a tab a plugin keeps. */
  readonly filePath: string | null;
  readonly kind: string;
}

/** A place in a file to show: a line (from 1), and optionally a column (from 1) and a length to select. */
export interface PagePlace {
  readonly line: number;
  readonly column?: number;
  readonly length?: number;
}

/**
 * What a page module may ask of the window it runs in (host API 1.11.0): open a file of the
 * scope in a tab of this window — or show the tab that has it — with a place selected and
 * scrolled to, as a vault search result opens. The host's path guard decides what opens.
 */
export interface PageOpen {
  open(filePath: string, place?: PagePlace): Promise<void>;
}

/** What the editor hands a panel's module: its own provider, its window's tab, and nothing else of the host. */
export interface PanelApi extends PageOpen {
  /** Calls the provider: `'load'` or one of its `actions`; rejects with the host's message. */
  request(method: string, params?: unknown): Promise<unknown>;
  /** Called whenever the provider asks for a refresh; returns the unsubscribe. */
  onRefresh(listener: () => void): () => void;
  /** The tab the panel's window shows now, or null (host API 1.11.0). */
  activeTab(): PageTab | null;
  /** Called when the window shows another tab (or none); returns the unsubscribe. */
  onActiveTab(listener: (tab: PageTab | null) => void): () => void;
}

/**
 * The default shape of a panel module: `export function mount(element, api)`.
 * It may return a cleanup, called when the panel goes (its plugin disabled).
 * `E` is the page's `HTMLElement`; the SDK itself is not browser code.
 */
export type MountPanel<E> = (element: E, api: PanelApi) => void | (() => void);
