/**
 * From Chromium's accessibility tree (CDP `Accessibility.getFullAXTree`) to the entries of a
 * `read` snapshot, in document order: what carries nothing is dropped (generic containers,
 * lists, whitespace, list markers), a control or heading takes its own text as its name, and
 * the text between controls is kept as short excerpts so that a model can tell what the page
 * says around them. Pure: the refs come later, from the isolated world.
 */
import type { AXNode, AXValue } from './cdp-types.js';

export const NAME_CHARS = 200;
/**
 * Options of a closed `<select>` listed at most (a country list has 250); the others are
 * counted. Choosing one by its label works whether or not it was listed.
 */
export const SELECT_OPTIONS = 25;

export type Checked = boolean | 'mixed';

export type PlannedEntry =
  | {
      readonly kind: 'element';
      readonly role: string;
      readonly name: string;
      /** The name was longer than NAME_CHARS. */
      readonly cut: boolean;
      readonly backendNodeId: number;
      readonly level?: number;
      readonly checked?: Checked;
      readonly disabled?: true;
      /** An `<iframe>`: its document's entries follow it. */
      readonly frame?: true;
    }
  | { readonly kind: 'text'; readonly name: string };

export interface PlanOptions {
  /** Keep the text between controls (excerpts of NAME_CHARS at most). */
  readonly text: boolean;
  /** Keep landmarks (navigation, main, …) as section markers. */
  readonly landmarks: boolean;
  /** One excerpt for all the text between two elements, rather than one per block. */
  readonly mergeText?: boolean;
  /** Characters an excerpt keeps at most (names of elements keep NAME_CHARS). */
  readonly textChars?: number;
  /** Leave out the text of page furniture (banner, navigation, footer, sidebars). */
  readonly skipFurnitureText?: boolean;
}

/** What `read` keeps (bench/browser-snapshot.mjs measured the alternatives; ADR 0030). */
export const DEFAULT_PLAN: PlanOptions = {
  text: true,
  landmarks: true,
  mergeText: true,
  textChars: 120,
  skipFurnitureText: true,
};

/** Roles a person operates: always kept, named by their own text when the tree gives no name. */
const CONTROLS = new Set([
  'link',
  'button',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'slider',
  'spinbutton',
  'treeitem',
  'scrollbar',
  'DisclosureTriangle',
  'ColorWell',
  'Date',
  'DateTime',
  'InputTime',
  'Video',
  'Audio',
]);
const LANDMARKS = new Set([
  'banner',
  'navigation',
  'main',
  'contentinfo',
  'complementary',
  'search',
  'form',
  'region',
  'dialog',
  'alertdialog',
]);
/** Page furniture: its text says little about the page; its controls still count. */
const FURNITURE = new Set(['banner', 'navigation', 'contentinfo', 'complementary']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
/** Where a run of text ends: text on either side of one of these is not one excerpt. */
const BLOCKS = new Set([
  'paragraph',
  'listitem',
  'cell',
  'gridcell',
  'row',
  'columnheader',
  'rowheader',
  'blockquote',
  'figure',
  'caption',
  'article',
  'section',
  'list',
  'table',
  'term',
  'definition',
  'LayoutTableCell',
  'LayoutTableRow',
  'LineBreak',
  'group',
]);
/** Chromium's own role names, as a model knows them. */
const OUTPUT_ROLES: Record<string, string> = {
  DisclosureTriangle: 'button',
  Iframe: 'iframe',
  IframePresentational: 'iframe',
  ColorWell: 'button',
  Date: 'textbox',
  DateTime: 'textbox',
  InputTime: 'textbox',
  Video: 'video',
  Audio: 'audio',
};
const MEANINGFUL = /[\p{L}\p{N}]/u;

export function planEntries(nodes: readonly AXNode[], options: PlanOptions = DEFAULT_PLAN): PlannedEntry[] {
  const byId = new Map<string, AXNode>();
  for (const node of nodes) byId.set(node.nodeId, node);
  const root = nodes.find((node) => node.parentId === undefined) ?? nodes[0];
  const out: PlannedEntry[] = [];
  if (root === undefined) return out;

  let pending = '';
  /** The text since the last element, one excerpt however many blocks it spans. */
  let run: { kind: 'text'; name: string } | null = null;
  const endRun = () => {
    run = null;
  };
  const flush = () => {
    const text = normalize(pending);
    pending = '';
    if (!options.text || !MEANINGFUL.test(text)) return;
    // A label's text right after the control it names says nothing new.
    const last = out.at(-1);
    if (run === null && last?.kind === 'element' && sameText(last.name, text)) return;
    const limit = options.textChars ?? NAME_CHARS;
    if (run !== null && options.mergeText) {
      if (run.name.endsWith('…')) return;
      const joined = `${run.name} ${text}`;
      run.name = joined.length > limit ? `${joined.slice(0, limit - 1)}…` : joined;
      return;
    }
    run = { kind: 'text', name: text.length > limit ? `${text.slice(0, limit - 1)}…` : text };
    out.push(run);
  };

  /** The text under `node`, for a control or heading the tree left unnamed. */
  const textUnder = (node: AXNode): string => {
    let text = '';
    const stack = [...(node.childIds ?? [])].reverse();
    while (stack.length > 0 && text.length <= NAME_CHARS) {
      const child = byId.get(stack.pop()!);
      if (child === undefined || child.ignored) continue;
      if (role(child) === 'StaticText') text += ` ${stringValue(child.name)}`;
      else stack.push(...[...(child.childIds ?? [])].reverse());
    }
    return normalize(text);
  };

  // Iterative depth-first walk: a deep page must not overflow the stack. `within` is the name of
  // the control or heading being walked: its own text, and images or headings that only repeat
  // it, are already said.
  const stack: { node: AXNode; within?: string; leave?: true }[] = [{ node: root }];
  let furniture = 0;
  /** The options of the closed `<select>` being walked: the first few are listed, the rest counted. */
  let options_: { listed: number; more: number } | null = null;
  while (stack.length > 0) {
    const { node, within, leave } = stack.pop()!;
    const nodeRole = role(node);
    if (leave) {
      if (BLOCKS.has(nodeRole)) flush();
      if (FURNITURE.has(nodeRole) && !node.ignored) {
        flush();
        furniture--;
      }
      if (nodeRole === 'MenuListPopup' && options_ !== null) {
        if (options_.more > 0) out.push({ kind: 'text', name: `…and ${options_.more} more options` });
        options_ = null;
      }
      continue;
    }
    if (nodeRole === 'InlineTextBox' || nodeRole === 'ListMarker') continue;
    if (nodeRole === 'MenuListPopup') options_ = { listed: 0, more: 0 };
    if (nodeRole === 'option' && options_ !== null && !node.ignored) {
      if (options_.listed >= SELECT_OPTIONS) {
        options_.more++;
        continue;
      }
      options_.listed++;
    }
    let kind = node.ignored ? 'skip' : classify(node, nodeRole, options);
    if (within !== undefined && kind !== 'frame') {
      if (kind === 'text') continue;
      if (kind === 'element' && !CONTROLS.has(nodeRole) && !focusable(node)) {
        const own = normalize(stringValue(node.name));
        if (own === '' || within.includes(own)) kind = 'skip';
      }
    }
    let inside = within;
    if (kind === 'text') {
      if (furniture === 0 || !options.skipFurnitureText) pending += ` ${stringValue(node.name)}`;
      continue;
    }
    if (FURNITURE.has(nodeRole) && !node.ignored) {
      flush();
      furniture++;
    }
    if (kind === 'element' || kind === 'frame') {
      flush();
      // (A cast: TypeScript does not see `flush` assign `run`.)
      const textBefore = run as PlannedEntry | null;
      endRun();
      const own = normalize(stringValue(node.name));
      const namedByText = nodeRole === 'heading' || CONTROLS.has(nodeRole) || focusable(node);
      const full = own === '' && namedByText ? textUnder(node) : own;
      const cut = full.length > NAME_CHARS;
      const entry: {
        kind: 'element';
        role: string;
        name: string;
        cut: boolean;
        backendNodeId: number;
        level?: number;
        checked?: Checked;
        disabled?: true;
        frame?: true;
      } = {
        kind: 'element',
        role: OUTPUT_ROLES[nodeRole] ?? nodeRole,
        name: cut ? `${full.slice(0, NAME_CHARS - 1)}…` : full,
        cut,
        backendNodeId: node.backendDOMNodeId!,
      };
      const level = property(node, 'level');
      if (nodeRole === 'heading' && typeof level === 'number') entry.level = level;
      if (CHECKABLE.has(nodeRole)) entry.checked = checkedOf(property(node, 'checked'));
      if (property(node, 'disabled') === true) entry.disabled = true;
      // …nor right before it ("Email" then textbox "Email").
      const previous = out.at(-1);
      if (previous !== undefined && previous === textBefore && sameText(previous.name, entry.name)) out.pop();
      if (kind === 'frame') {
        entry.frame = true;
        out.push(entry);
        continue;
      }
      out.push(entry);
      if (namedByText) inside = full;
    }
    stack.push({ node, leave: true });
    for (const id of [...(node.childIds ?? [])].reverse()) {
      const child = byId.get(id);
      if (child !== undefined)
        stack.push(inside === undefined ? { node: child } : { node: child, within: inside });
    }
  }
  flush();
  return out;
}

type Kind = 'element' | 'frame' | 'text' | 'skip';

function classify(node: AXNode, nodeRole: string, options: PlanOptions): Kind {
  if (node.backendDOMNodeId === undefined) return 'skip';
  if (nodeRole === 'StaticText') return 'text';
  if (nodeRole === 'Iframe' || nodeRole === 'IframePresentational') return 'frame';
  if (nodeRole === 'RootWebArea') return 'skip';
  if (CONTROLS.has(nodeRole) || nodeRole === 'heading') return 'element';
  if (nodeRole === 'image' || nodeRole === 'img')
    return normalize(stringValue(node.name)) !== '' ? 'element' : 'skip';
  if (options.landmarks && LANDMARKS.has(nodeRole)) return 'element';
  if (focusable(node)) return 'element';
  return 'skip';
}

function role(node: AXNode): string {
  return typeof node.role?.value === 'string' ? node.role.value : '';
}

function focusable(node: AXNode): boolean {
  return property(node, 'focusable') === true && role(node) !== 'RootWebArea';
}

function property(node: AXNode, name: string): unknown {
  return node.properties?.find((p) => p.name === name)?.value.value;
}

function checkedOf(value: unknown): Checked {
  if (value === 'mixed') return 'mixed';
  return value === 'true' || value === true;
}

function stringValue(value: AXValue | undefined): string {
  return typeof value?.value === 'string' ? value.value : '';
}

/** The same words, whatever the case, spacing or a trailing ":" or "*" of a label. */
function sameText(a: string, b: string): boolean {
  const plain = (text: string) =>
    normalize(text)
      .replace(/[\s:*]+$/, '')
      .toLowerCase();
  return plain(a) !== '' && plain(a) === plain(b);
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
