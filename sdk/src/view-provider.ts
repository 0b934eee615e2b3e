import type { PanelHandler } from './panel.js';

/*
 * The host half of a custom kind view (ADR 35, 49): what a view's `api.request` and
 * `api.subscribe` reach. A plugin registers one for a kind its manifest gives a view
 * (`context.registerViewProvider`); a view reaches only its own plugin's provider for its kind.
 */

/** Sends one message to the one view that subscribed; JSON only. */
export type ViewSend = (data: unknown) => void;

export interface ViewProvider {
  /** The kind whose view this answers, as in the manifest's `contributes.views`. */
  readonly kind: string;
  /** Requests by name: `api.request(name, params)`; `params` is untrusted JSON. */
  readonly actions?: Readonly<Record<string, PanelHandler>>;
  /**
   * A view started watching `topic` (untrusted text): push to it with `send`. The cleanup runs
   * when it stops — unsubscribed, its page gone, or the plugin turned off. Throw to refuse.
   */
  watch?(topic: string, send: ViewSend): (() => void) | void;
}
