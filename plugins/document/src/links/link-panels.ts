import path from 'node:path';
import type {
  Disposable,
  DocumentSnapshot,
  DocumentStore,
  PanelProvider,
  Workbench,
  WorkspaceFiles,
} from '@vmark/sdk';
import { z } from '@vmark/sdk';
import { lineOf, lineStarts } from './lines.js';
import { isNote, RootLinkIndex } from './link-index.js';
import { outline } from './outline.js';

/** One row of the Outline or Backlinks panel: what it says, and where a click opens. */
export interface LinksPanelRow {
  readonly text: string;
  /** A second line under it (a backlink's context), or null. */
  readonly detail: string | null;
  /** How far it is indented (a heading's level less one). */
  readonly indent: number;
  readonly title: string;
  /** The file a click opens (absolute), or null: nothing to open (an untitled note). */
  readonly path: string | null;
  readonly place: { readonly line: number; readonly column: number; readonly length: number };
}

/** What either panel shows: its rows, and a note when there is nothing to list (or why not). */
export interface LinksPanelView {
  readonly rows: readonly LinksPanelRow[];
  readonly note: string | null;
}

/** Larger documents get no outline: parsing them on every keystroke would cost the typing. */
export const MAX_OUTLINE_CHARS = 4 * 1024 * 1024;

const tabParams = z.object({ tabId: z.string().min(1).max(200).nullable() }).catch({ tabId: null });

export interface LinkPanelServices {
  readonly workbench: Pick<Workbench, 'resolveTab'>;
  readonly documents: Pick<DocumentStore, 'get'>;
  readonly files: Pick<WorkspaceFiles, 'rootOf' | 'list' | 'onChange' | 'readText'>;
}

/**
 * The document plugin's Outline and Backlinks panels (ADR 20, 76): their host halves, and the link
 * index per workspace root that backlinks read, started when a panel first asks for a root.
 */
export class LinkPanels implements Disposable {
  readonly #indexes = new Map<string, RootLinkIndex>();
  #backlinksChanged: () => void = () => undefined;

  constructor(private readonly services: LinkPanelServices) {}

  /** Called (coalesced) whenever an index's links change: the Backlinks panel loads again. */
  onBacklinksChanged(listener: () => void): void {
    this.#backlinksChanged = listener;
  }

  outlineProvider(): PanelProvider {
    return {
      id: 'outline',
      load: (params): LinksPanelView => {
        const document = this.#documentOf(params);
        if (document === null) return { rows: [], note: 'No note is open.' };
        if (document.kind !== 'markdown') return { rows: [], note: 'This tab is not a Markdown note.' };
        if (document.content.length > MAX_OUTLINE_CHARS)
          return { rows: [], note: 'This note is too large for an outline.' };
        const starts = lineStarts(document.content);
        const rows = outline(document.content).map((h): LinksPanelRow => {
          const line = lineOf(starts, h.from);
          return {
            text: h.text,
            detail: null,
            indent: h.level - 1,
            title: `Heading ${h.level}, line ${line}`,
            path: document.filePath,
            place: { line, column: 1, length: 0 },
          };
        });
        return { rows, note: rows.length === 0 ? 'No headings.' : null };
      },
    };
  }

  backlinksProvider(): PanelProvider {
    return {
      id: 'backlinks',
      load: async (params): Promise<LinksPanelView> => {
        const filePath = this.#documentOf(params)?.filePath ?? null;
        if (filePath === null) return { rows: [], note: 'Backlinks are those of a saved note.' };
        const root = this.services.files.rootOf(filePath);
        if (root === null) return { rows: [], note: 'This note is outside the open workspace.' };
        const found = await this.#indexOf(root).backlinks(toVault(root, filePath));
        const rows = found.map((b): LinksPanelRow => ({
          text: b.path,
          detail: b.context,
          indent: 0,
          title: `${b.path}, line ${b.line}`,
          path: path.join(root, ...b.path.split('/')),
          place: { line: b.line, column: b.column, length: b.length },
        }));
        return { rows, note: rows.length === 0 ? 'No other note links here.' : null };
      },
    };
  }

  /** A document's text changed: an indexed note takes its buffer's links (or its file's, once saved). */
  written(document: DocumentSnapshot): void {
    if (document.filePath === null || document.kind !== 'markdown') return;
    const root = this.services.files.rootOf(document.filePath);
    const index = root === null ? undefined : this.#indexes.get(root);
    if (index === undefined || root === null) return;
    const relative = toVault(root, document.filePath);
    if (isNote(relative)) index.setBuffer(relative, document.dirty ? () => document.content : null);
  }

  dispose(): void {
    for (const index of this.#indexes.values()) index.dispose();
    this.#indexes.clear();
  }

  #indexOf(root: string): RootLinkIndex {
    let index = this.#indexes.get(root);
    if (index === undefined) {
      index = new RootLinkIndex(root, this.services.files, () => this.#backlinksChanged());
      this.#indexes.set(root, index);
    }
    return index;
  }

  /** The document of the tab the panel's window shows (the page names it), or null. */
  #documentOf(params: unknown): DocumentSnapshot | null {
    const { tabId } = tabParams.parse(params);
    if (tabId === null) return null;
    try {
      return this.services.documents.get(this.services.workbench.resolveTab(tabId).documentId);
    } catch {
      // A tab closed meanwhile, or one a plugin keeps (a browser tab): nothing to show.
      return null;
    }
  }
}

function toVault(root: string, filePath: string): string {
  return path.relative(root, filePath).split(path.sep).join('/');
}
