/**
 * What the AI did in one tab, for the person at the editor (issue 17 item 5, ADR 53): its
 * navigations, acts with what followed, the approvals asked and refusals met, newest first, each
 * with a small picture of the page at the time. Kept in memory only, bounded in entries and in
 * picture bytes; it goes away with the tab. An entry says what was acted on, never a typed value.
 */
import type { ActRequest, ActTarget } from '../acting/act-args.js';
import type { NavigationResult } from '../navigation/navigation-result.js';

export type ActivityKind = 'navigation' | 'act' | 'refusal';

export interface ActivityEntry {
  readonly id: number;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly kind: ActivityKind;
  /** What was done, in words: "click button “Add”", "type into textbox “Name”". */
  readonly what: string;
  /** What followed: an act's effect or refusal reason, a refusal's token. */
  readonly outcome: string;
  readonly url: string;
}

/** An entry as the view lists it: whether it has a picture, not the picture itself. */
export type ListedEntry = ActivityEntry & { readonly hasPicture: boolean };

export const MAX_ENTRIES = 50;
/** Pictures are dropped oldest first past this many bytes per tab; their entries stay. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;

export class TabActivity {
  readonly #entries: { entry: ActivityEntry; picture: Buffer | null }[] = [];
  readonly #listeners = new Set<() => void>();
  #nextId = 1;
  #pictureBytes = 0;

  constructor(private readonly limits = { entries: MAX_ENTRIES, pictureBytes: MAX_PICTURE_BYTES }) {}

  add(entry: Omit<ActivityEntry, 'id' | 'at'>, picture: Buffer | null, at = Date.now()): ActivityEntry {
    const kept = picture !== null && picture.length <= this.limits.pictureBytes ? picture : null;
    const full: ActivityEntry = { ...entry, id: this.#nextId++, at };
    this.#entries.push({ entry: full, picture: kept });
    this.#pictureBytes += kept?.length ?? 0;
    while (this.#entries.length > this.limits.entries)
      this.#pictureBytes -= this.#entries.shift()!.picture?.length ?? 0;
    for (const held of this.#entries) {
      if (this.#pictureBytes <= this.limits.pictureBytes) break;
      this.#pictureBytes -= held.picture?.length ?? 0;
      held.picture = null;
    }
    for (const listener of [...this.#listeners]) listener();
    return full;
  }

  /** Newest first. */
  list(): ListedEntry[] {
    return this.#entries.map(({ entry, picture }) => ({ ...entry, hasPicture: picture !== null })).reverse();
  }

  /** The entry's picture (JPEG), or null when it has none or is gone. */
  picture(id: number): Buffer | null {
    return this.#entries.find(({ entry }) => entry.id === id)?.picture ?? null;
  }

  get pictureBytes(): number {
    return this.#pictureBytes;
  }

  onAdded(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** An act in words, without what was typed: the field is named, the text is not. */
export function describeAct(request: ActRequest): string {
  const target = 'target' in request && request.target !== null ? ` ${targetText(request.target)}` : '';
  switch (request.operation) {
    case 'click':
      return `click${target}`;
    case 'type':
      return `type into${target}`;
    case 'key':
      return `press ${request.key}${target === '' ? '' : ` in${target}`}`;
    case 'scroll':
      return target === '' ? 'scroll the page' : `scroll${target} into view`;
  }
}

function targetText(target: ActTarget): string {
  return target.kind === 'ref' ? `ref ${target.ref}` : `${target.role} “${target.name}”`;
}

/** A navigation in words: where it went, its status, and a gate it met (a login, a CAPTCHA). */
export function navigationNote(
  what: 'open' | 'navigate',
  result: NavigationResult,
): { what: string; outcome: string } {
  const status = result.status === undefined ? 'loaded' : `HTTP ${result.status}`;
  return {
    what: `${what} ${result.url}`,
    outcome: result.gate ? `${status}, gate: ${result.gate.kind}` : status,
  };
}
