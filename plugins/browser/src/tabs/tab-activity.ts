/**
 * What the AI did in one tab, for the person at the editor (issue 17 item 5, ADR 53, ADR 57): its
 * navigations, acts with what followed, the approvals asked and how they were answered, the steps
 * of a workflow run, refusals met; newest first, each with a small picture of the page taken just
 * after it. Kept in memory only, bounded in entries, text and picture bytes; it goes away with the
 * tab. An entry says what was acted on, never a typed value.
 *
 * The picture never holds up the call that made the entry: an entry is listed at once with its
 * picture `pending`, and pictures are taken one at a time, each for every entry that was waiting
 * when it began — so a later entry's picture never shows an earlier state than an earlier
 * entry's. A picture taken after the tab's page changed generation (it navigated) or that could
 * not be taken leaves its entries with `none`.
 */
import type { ActRequest, ActTarget } from '../acting/act-args.js';
import type { NavigationResult } from '../navigation/navigation-result.js';

export type ActivityKind = 'navigation' | 'act' | 'refusal' | 'approval' | 'step' | 'workflow';

export interface ActivityEntry {
  readonly id: number;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly kind: ActivityKind;
  /** What was done, in words: "click button “Add”", "type into textbox “Name”". */
  readonly what: string;
  /** What followed: an act's effect or refusal reason, an approval's answer, a step's outcome. */
  readonly outcome: string;
  readonly url: string;
}

/** Where an entry's picture is: being taken, held, or none (it could not be, or was dropped). */
export type PictureState = 'pending' | 'ready' | 'none';

/** An entry as the view lists it: where its picture is, not the picture itself. */
export type ListedEntry = ActivityEntry & { readonly picture: PictureState };

/** A picture of the page, and the page generation it was taken of (null: the page changed meanwhile). */
export interface Shot {
  readonly picture: Buffer | null;
  readonly generation: number | null;
}

export const MAX_ENTRIES = 50;
/** Pictures are dropped oldest first past this many bytes per tab; their entries stay. */
export const MAX_PICTURE_BYTES = 2 * 1024 * 1024;
/** An entry's `what` and `outcome` at most (code points): element names and URLs are the page's. */
export const MAX_TEXT = 300;

interface Held {
  readonly entry: ActivityEntry;
  /** The page generation the entry was noted at, when it waits for a picture. */
  readonly generation: number | null;
  /** Said once: a request's answer noted again (a retry, a run polling) is the same entry. */
  readonly key: string | undefined;
  state: PictureState;
  picture: Buffer | null;
}

export class TabActivity {
  readonly #held: Held[] = [];
  readonly #listeners = new Set<() => void>();
  #nextId = 1;
  #pictureBytes = 0;
  /** The pictures being taken now, if any: one at a time. */
  #shooting: Promise<void> | null = null;

  constructor(private readonly limits = { entries: MAX_ENTRIES, pictureBytes: MAX_PICTURE_BYTES }) {}

  /**
   * Lists an entry at once. With a `generation` it waits for a picture (`takePictures`); without,
   * it has none. With a `key` already held, nothing is added and the held entry is answered.
   */
  add(
    entry: Omit<ActivityEntry, 'id' | 'at'>,
    options: { readonly generation?: number; readonly key?: string; readonly at?: number } = {},
  ): ActivityEntry {
    const known = options.key === undefined ? undefined : this.#held.find((held) => held.key === options.key);
    if (known !== undefined) return known.entry;
    const full: ActivityEntry = {
      ...entry,
      what: bounded(entry.what),
      outcome: bounded(entry.outcome),
      id: this.#nextId++,
      at: options.at ?? Date.now(),
    };
    const generation = options.generation ?? null;
    this.#held.push({
      entry: full,
      generation,
      key: options.key,
      state: generation === null ? 'none' : 'pending',
      picture: null,
    });
    while (this.#held.length > this.limits.entries)
      this.#pictureBytes -= this.#held.shift()!.picture?.length ?? 0;
    this.#tell();
    return full;
  }

  /**
   * Takes pictures until no entry waits for one, one at a time, with `shoot`; returns at once
   * when pictures are being taken already (that loop takes the new entry's too). Never rejects.
   */
  takePictures(shoot: () => Promise<Shot>): Promise<void> {
    this.#shooting ??= this.#shootAll(shoot).finally(() => (this.#shooting = null));
    return this.#shooting;
  }

  /** Resolves when no picture is being taken (at once when none is). */
  settled(): Promise<void> {
    return this.#shooting ?? Promise.resolve();
  }

  async #shootAll(shoot: () => Promise<Shot>): Promise<void> {
    for (;;) {
      // The entries noted before this picture begins: it shows the page after each of them.
      const waiting = this.#held.filter((held) => held.state === 'pending');
      if (waiting.length === 0) return;
      const shot = await shoot().catch((): Shot => ({ picture: null, generation: null }));
      const fits = shot.picture !== null && shot.picture.length <= this.limits.pictureBytes;
      // One picture serves every entry of its page; each held entry counts its bytes apart.
      for (const held of waiting) {
        if (!this.#held.includes(held)) continue; // dropped by the entry bound meanwhile
        const ours = fits && held.generation === shot.generation;
        held.state = ours ? 'ready' : 'none';
        held.picture = ours ? shot.picture : null;
        this.#pictureBytes += held.picture?.length ?? 0;
      }
      this.#dropPicturesOverBound();
      this.#tell();
    }
  }

  #dropPicturesOverBound(): void {
    for (const held of this.#held) {
      if (this.#pictureBytes <= this.limits.pictureBytes) break;
      if (held.picture === null) continue;
      this.#pictureBytes -= held.picture.length;
      held.picture = null;
      held.state = 'none';
    }
  }

  /** Newest first. */
  list(): ListedEntry[] {
    return this.#held.map(({ entry, state }) => ({ ...entry, picture: state })).reverse();
  }

  /** The entry's picture (JPEG), or null when it has none, not yet, or is gone. */
  picture(id: number): Buffer | null {
    return this.#held.find(({ entry }) => entry.id === id)?.picture ?? null;
  }

  get pictureBytes(): number {
    return this.#pictureBytes;
  }

  /** Told when an entry is listed and when pictures are attached; returns the unsubscribe. */
  onChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

function bounded(text: string): string {
  const points = [...text];
  return points.length <= MAX_TEXT ? text : `${points.slice(0, MAX_TEXT - 1).join('')}…`;
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
