/**
 * Navigation tickets (vmark-notes §3.1): every `open` / `navigate` starts one, `nav-<n>` per
 * tab. A ticket outlives the call that started it — a call that timed out still names it, and
 * `browser_read wait` later gets its outcome — and a newer navigation supersedes it.
 */

export type NavigationOutcome =
  | { readonly kind: 'loaded'; readonly status: number | null }
  /** `url`: the hop the guard refused (as asked; redact before it reaches a client). */
  | { readonly kind: 'refused'; readonly reason: string; readonly url: string }
  /** `url`: the request that failed, a redirect hop perhaps (as asked; redact before it reaches a client). */
  | { readonly kind: 'failed'; readonly error: string; readonly url?: string }
  | { readonly kind: 'superseded'; readonly by: string }
  /** The tab went away (closed, its renderer crashed, its browser lost) before the page loaded. */
  | { readonly kind: 'closed' };

export interface NavigationTicket {
  readonly id: string;
  /** Where it was asked to go (as asked; redact before it reaches a client). */
  readonly url: string;
  /** Settles once: never rejects. */
  readonly outcome: Promise<NavigationOutcome>;
  /** The outcome once settled. */
  settled(): NavigationOutcome | undefined;
}

export class NavigationTickets {
  #next = 1;
  readonly #tickets = new Map<string, NavigationTicket & { end(outcome: NavigationOutcome): void }>();
  #latest: string | null = null;

  /** Starts a ticket for `run`, superseding the one before it. */
  start(url: string, run: () => Promise<NavigationOutcome>): NavigationTicket {
    const id = `nav-${this.#next++}`;
    if (this.#latest !== null) this.#tickets.get(this.#latest)?.end({ kind: 'superseded', by: id });
    let settledWith: NavigationOutcome | undefined;
    let end!: (outcome: NavigationOutcome) => void;
    const ended = new Promise<NavigationOutcome>((resolve) => (end = resolve));
    const outcome = Promise.race([
      run().catch((error: unknown): NavigationOutcome => ({ kind: 'failed', error: messageOf(error) })),
      ended,
    ]).then((value) => (settledWith ??= value));
    const ticket = { id, url, outcome, settled: () => settledWith, end };
    this.#tickets.set(id, ticket);
    this.#latest = id;
    // Only the recent ones are ever waited for.
    if (this.#tickets.size > 32) this.#tickets.delete(this.#tickets.keys().next().value!);
    return ticket;
  }

  get(id: string): NavigationTicket | undefined {
    return this.#tickets.get(id);
  }

  latest(): NavigationTicket | undefined {
    return this.#latest === null ? undefined : this.#tickets.get(this.#latest);
  }

  /** The page went away: what was pending will never load. */
  abandon(): void {
    for (const ticket of this.#tickets.values()) ticket.end({ kind: 'closed' });
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown error';
}
