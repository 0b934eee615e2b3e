/// <reference lib="dom" />
import { syntaxTree } from '@codemirror/language';
import { type EditorState, Facet, type Range, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  ViewPlugin,
  type ViewUpdate,
  WidgetType,
} from '@codemirror/view';
import type { KindViewTab, TextViewApi } from '@vmark/sdk';
import { onlyTransaction, redrawnInChangedBlock } from './live/kept-blocks.js';

/*
 * Images in the Markdown view (ADR 74). Live mode shows `![alt](pic.png)` (a path relative to
 * the note) and `![[pic.png]]` (a wikilink embed, found by name in the workspace) through the
 * page's image route, which serves only files of the workspace; a remote image only while the
 * person allows remote content (`images.allowRemote`), a placeholder saying why otherwise.
 * Pasting or dropping an image, in either mode, saves it into the attachments folder
 * (`images.attachmentFolder`) and inserts its link where the cursor was.
 */

export const ALLOW_REMOTE = 'images.allowRemote';
export const ATTACHMENT_FOLDER = 'images.attachmentFolder';
/** The largest image a paste saves: the host's bound, checked here first so nothing is sent. */
export const MAX_PASTED_BYTES = 20 * 1024 * 1024;

/** The tab and the page's API, for the view's extensions to share. */
export const imageHost = Facet.define<
  { tab: KindViewTab; api: TextViewApi },
  { tab: KindViewTab; api: TextViewApi } | null
>({
  combine: (values) => values[0] ?? null,
});

/** The extensions of a tab: its image host and the paste and drop handlers. */
export function imageExtensions(tab: KindViewTab, api: TextViewApi) {
  return [imageHost.of({ tab, api }), pendingImages, imagePasting];
}

/** Which image a link's destination names, as the page can load it, or why it is not shown. */
export type ImageSource = { readonly url: string } | { readonly notice: string };

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp|avif|bmp|ico|svg)$/i;

export function imageSource(destination: string, tab: KindViewTab, api: TextViewApi): ImageSource {
  const raw = destination.replace(/^<(.*)>$/s, '$1').trim();
  if (/^https?:\/\//i.test(raw)) {
    return api.setting(ALLOW_REMOTE) === true
      ? { url: raw }
      : { notice: `Remote image not loaded: turn on “Show remote images” in Settings to load ${raw}` };
  }
  if (/^data:image\//i.test(raw)) return { url: raw };
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return { notice: `Image not shown: ${raw} is no workspace file` };
  if (tab.filePath === null) return { notice: 'Image not shown: save the note to show the images it links' };
  let relative = raw.replace(/[?#].*$/s, '');
  try {
    relative = decodeURIComponent(relative);
  } catch {
    // Not %-encoded: the name as written.
  }
  const folder = tab.filePath.slice(0, tab.filePath.lastIndexOf('/') + 1);
  const path = relative.startsWith('/') ? relative : folder + relative;
  return { url: api.imageUrl({ path }) };
}

class ImageWidget extends WidgetType {
  constructor(
    readonly source: ImageSource,
    readonly alt: string,
  ) {
    super();
  }

  override eq(other: ImageWidget): boolean {
    return (
      other.alt === this.alt &&
      ('url' in other.source ? other.source.url : other.source.notice) ===
        ('url' in this.source ? this.source.url : this.source.notice)
    );
  }

  toDOM(): HTMLElement {
    if ('notice' in this.source) return notice(this.source.notice);
    // The widget's own element stays: only what is inside it changes when the image fails.
    const box = document.createElement('span');
    box.className = 'cm-lp-image-box';
    const image = document.createElement('img');
    image.className = 'cm-lp-image';
    image.alt = this.alt;
    image.src = this.source.url;
    image.referrerPolicy = 'no-referrer';
    image.addEventListener('error', () =>
      box.replaceChildren(
        notice(`Image not shown: ${this.alt || 'the file'} is missing, too large or outside the workspace`),
      ),
    );
    box.append(image);
    return box;
  }

  override ignoreEvent(): boolean {
    return false;
  }
}

function notice(text: string): HTMLElement {
  const span = document.createElement('span');
  span.className = 'cm-lp-image-notice';
  span.textContent = text;
  return span;
}

/** `![[name]]`, `![[name|alt]]`, `![[name#part]]`: the embeds of images, by name. */
const EMBED = /!\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|([^\]\n]*))?\]\]/g;

/** Image widgets over the visible part: replacing the source on lines not being edited, after it on those that are. */
export function imageDecorations(
  state: EditorState,
  visible: readonly { from: number; to: number }[],
): DecorationSet {
  return Decoration.set(imageRanges(state, visible), true);
}

/** The image widgets over `ranges`, unsorted. */
function imageRanges(
  state: EditorState,
  ranges: readonly { from: number; to: number }[],
): Range<Decoration>[] {
  const host = state.facet(imageHost);
  if (host === null) return [];
  const editing = new Set<number>();
  for (const range of state.selection.ranges)
    for (let n = state.doc.lineAt(range.from).number; n <= state.doc.lineAt(range.to).number; n++)
      editing.add(n);
  const out: Range<Decoration>[] = [];
  const place = (from: number, to: number, source: ImageSource, alt: string) => {
    const widget = new ImageWidget(source, alt);
    const line = state.doc.lineAt(from);
    if (editing.has(line.number) || line.number !== state.doc.lineAt(to).number)
      out.push(Decoration.widget({ widget, side: 1 }).range(to));
    else out.push(Decoration.replace({ widget }).range(from, to));
  };
  const tree = syntaxTree(state);
  for (const { from, to } of ranges) {
    tree.iterate({
      from,
      to,
      enter: (node) => {
        if (node.name === 'FencedCode' || node.name === 'CodeBlock' || node.name === 'InlineCode')
          return false;
        if (node.name !== 'Image') return undefined;
        const url = node.node.getChild('URL');
        const marks = node.node.getChildren('LinkMark');
        if (url === null || marks.length < 2) return false;
        const alt = state.doc.sliceString(marks[0]!.to, marks[1]!.from);
        place(
          node.from,
          node.to,
          imageSource(state.doc.sliceString(url.from, url.to), host.tab, host.api),
          alt,
        );
        return false;
      },
    });
    const text = state.doc.sliceString(from, to);
    for (const match of text.matchAll(EMBED)) {
      const name = match[1]!.trim();
      if (!IMAGE_EXTENSIONS.test(name)) continue;
      const start = from + match.index;
      const inCode = tree.resolveInner(start, 1);
      if (/Code/.test(inCode.name)) continue;
      const source: ImageSource =
        host.tab.filePath === null
          ? { notice: 'Image not shown: save the note to show the images it embeds' }
          : { url: host.api.imageUrl({ embed: name, note: host.tab.filePath }) };
      place(start, start + match[0].length, source, match[2]?.trim() ?? name);
    }
  }
  return out;
}

/** Asks the images to be drawn again (a setting changed). */
const redraw = StateEffect.define<null>();

/** Live mode's images. */
export const liveImages = [
  ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      readonly #unsubscribe: () => void;

      constructor(view: EditorView) {
        this.decorations = imageDecorations(view.state, view.visibleRanges);
        const host = view.state.facet(imageHost);
        this.#unsubscribe =
          host?.api.onSettingsChange(() => view.dispatch({ effects: redraw.of(null) })) ?? (() => undefined);
      }

      update(update: ViewUpdate): void {
        // A setting changed: every image is drawn again.
        const settings = update.transactions.some((tr) => tr.effects.some((e) => e.is(redraw)));
        if (
          settings ||
          update.docChanged ||
          update.selectionSet ||
          update.viewportChanged ||
          syntaxTree(update.state) !== syntaxTree(update.startState)
        ) {
          // A keystroke redraws its own block (ADR 110).
          const tr = settings ? null : onlyTransaction(update);
          this.decorations =
            (tr && redrawnInChangedBlock(tr, update.view.visibleRanges, this.decorations, imageRanges)) ??
            imageDecorations(update.state, update.view.visibleRanges);
        }
      }

      destroy(): void {
        this.#unsubscribe();
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
  EditorView.baseTheme({
    '.cm-lp-image': { maxWidth: '100%', display: 'inline-block', verticalAlign: 'bottom' },
    '.cm-lp-image-notice': {
      display: 'inline-block',
      padding: '0.2em 0.6em',
      border: '1px dashed var(--rule, #ccc)',
      borderRadius: '4px',
      color: 'var(--ink-soft, #666)',
      fontSize: '0.85em',
    },
  }),
];

/* Pasting and dropping. */

const addPending = StateEffect.define<{ id: number; pos: number }>();
const removePending = StateEffect.define<number>();

/** Where each image being saved goes, mapped through the edits made while it travels. */
const pendingImages = StateField.define<ReadonlyMap<number, number>>({
  create: () => new Map(),
  update(value, tr) {
    let next = value;
    if (tr.docChanged) next = new Map([...next].map(([id, pos]) => [id, tr.changes.mapPos(pos)]));
    for (const effect of tr.effects) {
      if (effect.is(addPending)) next = new Map(next).set(effect.value.id, effect.value.pos);
      if (effect.is(removePending)) {
        next = new Map(next);
        (next as Map<number, number>).delete(effect.value);
      }
    }
    return next;
  },
});

let nextPending = 1;

/** The images among pasted or dropped files. */
function imagesOf(files: FileList | undefined | null): File[] {
  return [...(files ?? [])].filter((file) => file.type.startsWith('image/'));
}

const imagePasting = EditorView.domEventHandlers({
  paste(event, view) {
    const images = imagesOf(event.clipboardData?.files);
    if (images.length === 0) return false;
    event.preventDefault();
    for (const image of images) void saveAndLink(view, image, view.state.selection.main.head);
    return true;
  },
  drop(event, view) {
    const images = imagesOf(event.dataTransfer?.files);
    if (images.length === 0) return false;
    event.preventDefault();
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
    for (const image of images) void saveAndLink(view, image, pos);
    return true;
  },
});

/**
 * Saves one image through the host and inserts `![](link)` where it was pasted. The upload runs
 * on its own (the editor goes on); one over the bound is refused here with a notice, unsent.
 */
export async function saveAndLink(view: EditorView, image: Blob, pos: number): Promise<void> {
  const host = view.state.facet(imageHost);
  if (host === null) return;
  const note = host.tab.filePath;
  if (note === null) return imageNotice(view, 'Save the note first: a pasted image is saved beside it.');
  if (image.size > MAX_PASTED_BYTES) {
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    return imageNotice(
      view,
      `Image not saved: it is ${mb(image.size)} MB, and the editor saves images up to ${mb(MAX_PASTED_BYTES)} MB.`,
    );
  }
  const id = nextPending++;
  view.dispatch({ effects: addPending.of({ id, pos }) });
  try {
    const folder = host.api.setting(ATTACHMENT_FOLDER);
    const saved = await host.api.saveImage(note, image, typeof folder === 'string' ? folder : '/');
    const at = view.state.field(pendingImages).get(id) ?? view.state.selection.main.head;
    const insert = `![](${saved.link})`;
    view.dispatch({
      changes: { from: at, insert },
      selection: { anchor: at + insert.length },
      effects: removePending.of(id),
      userEvent: 'input.paste',
    });
    imageNotice(view, `Image saved: ${saved.path}`);
  } catch (error) {
    view.dispatch({ effects: removePending.of(id) });
    imageNotice(view, `Image not saved: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A line at the foot of the editor saying what became of a paste; it stays until clicked or replaced. */
export function imageNotice(view: EditorView, text: string): void {
  let line = view.dom.querySelector<HTMLElement>(':scope > .cm-image-status');
  if (line === null) {
    line = document.createElement('div');
    line.className = 'cm-image-status';
    line.setAttribute('role', 'status');
    line.style.cssText =
      'padding:4px 12px;font-size:12px;border-top:1px solid var(--rule,#ddd);cursor:pointer';
    const created = line;
    created.addEventListener('click', () => created.remove());
    view.dom.append(created);
  }
  line.textContent = text;
}
