import type { Disposable } from '@vmark/sdk';
import { ArgumentError, DisposableStore, toDisposable } from '@vmark/sdk';
import type { ApprovalBroker } from '../../approvals/approval-broker.js';
import { GrantNotFoundError, NotAnOriginError } from '../../approvals/standing-grant.js';
import type { PanelMessage, StandingGrant } from '../../protocol/panel-protocol.js';

/** What Settings needs of the broker: its grants, ending one, and word of a change. */
export type GrantDesk = Pick<ApprovalBroker, 'grants' | 'revoke' | 'onDidChangeGrants'>;

/**
 * The "Standing grants" list of Settings: the broker's grants, value-free, each revocable. Every
 * window is told of a change, wherever it came from (a dialog, an elicitation form, a terminal's
 * `vmark approvals revoke`), so the list never shows a grant that is gone.
 */
export class UiGrants implements Disposable {
  readonly #sinks = new Set<(message: PanelMessage) => void>();
  readonly #store = new DisposableStore();

  constructor(private readonly desk: GrantDesk) {
    this.#store.add(desk.onDidChangeGrants(() => this.#broadcast()));
  }

  attach(sink: (message: PanelMessage) => void): Disposable {
    this.#sinks.add(sink);
    return toDisposable(() => this.#sinks.delete(sink));
  }

  list(): StandingGrant[] {
    return this.desk.grants();
  }

  /**
   * Ends one grant, or every grant on one site (Settings lists them by site).
   * @throws ArgumentError for a grant, or a site's grants, no longer held (revoked elsewhere), or
   * an origin that is not one; nothing changes then.
   */
  revoke(selector: { readonly id: string } | { readonly origin: string }): StandingGrant[] {
    let revoked: StandingGrant[];
    try {
      revoked = this.desk.revoke(selector);
    } catch (error) {
      if (error instanceof GrantNotFoundError) {
        throw new ArgumentError('That standing grant is no longer held: it was already revoked');
      }
      if (error instanceof NotAnOriginError) throw new ArgumentError(error.message);
      throw error;
    }
    if (revoked.length === 0) {
      throw new ArgumentError('No standing grant on that site is held any more: they were already revoked');
    }
    return this.list();
  }

  dispose(): void {
    this.#sinks.clear();
    this.#store.dispose();
  }

  #broadcast(): void {
    const message: PanelMessage = { type: 'grants.changed', grants: this.list() };
    for (const sink of [...this.#sinks]) sink(message);
  }
}
