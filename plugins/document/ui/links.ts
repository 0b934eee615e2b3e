/// <reference lib="dom" />
import { syntaxTree } from '@codemirror/language';
import {
  type EditorState,
  type Extension,
  Facet,
  type Range,
  StateEffect,
  StateField,
} from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  showTooltip,
  type Tooltip,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import type { KindViewTab, TextViewApi } from '@vmark/sdk';
import { wikilinkParts } from '@vmark/sdk/markdown';

/*
 * Links in the Markdown view (ADR 64, 76): styled in both modes, followed on Ctrl/Cmd+click or by
 * the command "Follow link" (Mod+Enter, `runsIn: "page"`, ADR 72: the page has the person's text
 * and cursor as they are). A vault link goes to the plugin's host half, which finds the file
 * (or makes the note) through the path guard; the page then opens it in this window. An http(s)
 * link opens outside the editor, never in its page; any other scheme is refused.
 */

/** A link at a place of the text, as the person wrote it. */
export type PageLink =
  | { readonly kind: 'external'; readonly url: string; readonly from: number; readonly to: number }
  | {
      readonly kind: 'vault';
      readonly form: 'wikilink' | 'embed' | 'markdown';
      readonly target: string;
      readonly heading: string | null;
      readonly from: number;
      readonly to: number;
    }
  | { readonly kind: 'refused'; readonly reason: string; readonly from: number; readonly to: number };

const LINKS = new Set(['Wikilink', 'WikilinkEmbed', 'Link', 'Image', 'Autolink', 'URL']);
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The link the position is in (or touches, at its end), or null. */
export function linkAt(state: EditorState, pos: number): PageLink | null {
  const tree = syntaxTree(state);
  for (const side of [1, -1] as const) {
    for (let node: SyntaxNode | null = tree.resolveInner(pos, side); node !== null; node = node.parent) {
      if (!LINKS.has(node.name)) continue;
      // A URL inside a link or an autolink belongs to it.
      if (node.name === 'URL' && node.parent !== null && LINKS.has(node.parent.name)) continue;
      const link = readLink(state, node);
      if (link !== null) return link;
    }
  }
  return null;
}

function readLink(state: EditorState, node: SyntaxNode): PageLink | null {
  const { from, to } = node;
  const text = (n: { from: number; to: number }) => state.sliceDoc(n.from, n.to);
  if (node.name === 'Wikilink' || node.name === 'WikilinkEmbed') {
    const inner = node.getChild('WikilinkTarget');
    if (inner === null) return null;
    const parts = wikilinkParts(text(inner));
    const form = node.name === 'Wikilink' ? 'wikilink' : 'embed';
    return { kind: 'vault', form, target: parts.target, heading: parts.heading, from, to };
  }
  const url = node.name === 'URL' ? node : node.getChild('URL');
  if (url === null) return null;
  let address = text(url);
  if (address.startsWith('<') && address.endsWith('>')) address = address.slice(1, -1);
  // A bare `www.` autolink is a web address too.
  if (node.name === 'URL' && /^www\./i.test(address)) address = `https://${address}`;
  const scheme = SCHEME.exec(address)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return { kind: 'external', url: address, from, to };
  if (scheme !== undefined || address.startsWith('//'))
    return { kind: 'refused', reason: `Only http and https links open outside the editor`, from, to };
  const hash = address.indexOf('#');
  const target = decode(hash === -1 ? address : address.slice(0, hash));
  const heading = hash === -1 ? null : decode(address.slice(hash + 1));
  return { kind: 'vault', form: 'markdown', target, heading, from, to };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A short message under a link the editor did not follow (or about one it made). */
const say = StateEffect.define<{ pos: number; message: string } | null>();

const notice = StateField.define<Tooltip | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects)
      if (effect.is(say)) return effect.value === null ? null : tooltipOf(effect.value);
    return tr.docChanged || tr.selection ? null : value;
  },
  provide: (field) => showTooltip.from(field),
});

function tooltipOf({ pos, message }: { pos: number; message: string }): Tooltip {
  return {
    pos,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-link-notice';
      dom.setAttribute('role', 'status');
      dom.textContent = message;
      return { dom };
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Follows the link: outside for the web, through the host for the vault. */
export async function follow(
  view: EditorView,
  link: PageLink,
  tab: KindViewTab,
  api: TextViewApi,
): Promise<void> {
  const tell = (message: string) => view.dispatch({ effects: say.of({ pos: link.from, message }) });
  if (link.kind === 'refused') return tell(link.reason);
  if (link.kind === 'external') {
    // A new browsing context with no way back to this page (noopener): the editor never navigates.
    window.open(link.url, '_blank', 'noopener,noreferrer');
    return;
  }
  let answer: { path: string | null; line: number | null; created: boolean };
  try {
    answer = (await api.request('followLink', {
      tabId: tab.id,
      link: { form: link.form, target: link.target, heading: link.heading },
    })) as typeof answer;
  } catch (error) {
    return tell(messageOf(error));
  }
  if (answer.path === null) {
    if (answer.line === null) return tell(`No heading “${link.heading ?? ''}” in this note`);
    const line = view.state.doc.line(Math.min(answer.line, view.state.doc.lines));
    view.dispatch({ selection: { anchor: line.from }, scrollIntoView: true });
    return;
  }
  await api.open(answer.path, answer.line === null ? undefined : { line: answer.line });
}

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform);

/** Link styles in both modes: a link reads as one, and shows the pointer while Ctrl/Cmd is held. */
const linkMark = Decoration.mark({ class: 'cm-md-link' });

function linkDecorations(view: EditorView): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const { from, to } of view.visibleRanges) {
    syntaxTree(view.state).iterate({
      from,
      to,
      enter: (node) => {
        if (
          node.name === 'Wikilink' ||
          node.name === 'WikilinkEmbed' ||
          node.name === 'Link' ||
          node.name === 'Autolink'
        ) {
          ranges.push(linkMark.range(node.from, node.to));
          return false;
        }
        return undefined;
      },
    });
  }
  return Decoration.set(ranges, true);
}

const linkStyles = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = linkDecorations(view);
    }
    update(update: ViewUpdate): void {
      if (
        update.docChanged ||
        update.viewportChanged ||
        syntaxTree(update.state) !== syntaxTree(update.startState)
      )
        this.decorations = linkDecorations(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

const linkTheme = EditorView.baseTheme({
  '.cm-md-link': { color: 'var(--accent)' },
  '&.cm-mod-held .cm-md-link': { cursor: 'pointer', textDecoration: 'underline' },
  // A notice says, and never stands in the way of the next click.
  '.cm-tooltip.cm-link-notice': {
    pointerEvents: 'none',
    padding: '4px 8px',
    font: '13px var(--font-ui, sans-serif)',
    background: '#fff7e0',
    border: '1px solid #e0c070',
    borderRadius: '4px',
  },
});

/** The tab a view shows and its door to the page, for the page command that follows a link. */
const linkContext = Facet.define<
  { tab: KindViewTab; api: TextViewApi },
  { tab: KindViewTab; api: TextViewApi } | null
>({
  combine: (values) => values[0] ?? null,
});

/** The page command "Follow link" (`document.followLink`, Mod+Enter): the link at the cursor. */
export function followLinkAtCursor(view: EditorView): boolean {
  const context = view.state.facet(linkContext);
  if (context === null) return false;
  const head = view.state.selection.main.head;
  const link = linkAt(view.state, head);
  if (link === null) {
    view.dispatch({ effects: say.of({ pos: head, message: 'No link at the cursor' }) });
    return false;
  }
  void follow(view, link, context.tab, context.api);
  return true;
}

/** The view's link extensions for one tab. */
export function links(tab: KindViewTab, api: TextViewApi): Extension {
  const modHeld = (event: MouseEvent | KeyboardEvent) => (isMac() ? event.metaKey : event.ctrlKey);
  return [
    notice,
    linkStyles,
    linkTheme,
    EditorView.domEventHandlers({
      mousedown(event, view) {
        if (event.button !== 0 || !modHeld(event)) return false;
        const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
        const link = pos === null ? null : linkAt(view.state, pos);
        if (link === null) return false;
        event.preventDefault();
        void follow(view, link, tab, api);
        return true;
      },
      keydown(event, view) {
        view.dom.classList.toggle('cm-mod-held', modHeld(event));
        return false;
      },
      keyup(event, view) {
        view.dom.classList.toggle('cm-mod-held', modHeld(event));
        return false;
      },
    }),
    linkContext.of({ tab, api }),
  ];
}
