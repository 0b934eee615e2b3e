import path from 'node:path';
import type { DocumentStore, Vault, ViewProvider, Workbench, WorkspaceFiles } from '@vmark/sdk';
import { ArgumentError, DomainError, z } from '@vmark/sdk';
import { linkTarget, newNotePath } from './link-target.js';
import { headingLine } from './outline.js';

/** A note larger than this is not read for a heading (the link still opens it). */
export const MAX_NOTE_BYTES = 4 * 1024 * 1024;

/** What the Markdown view asks when the person follows a link (Ctrl/Cmd+click, or the command). */
const followRequest = z.object({
  tabId: z.string().min(1).max(200),
  link: z.object({
    form: z.enum(['wikilink', 'embed', 'markdown']),
    target: z.string().max(4096),
    heading: z.string().max(4096).nullable(),
  }),
});

export type FollowRequest = z.infer<typeof followRequest>;

/** Where the link leads: a file of the vault (or null: the same note), the heading's line, made now or not. */
export interface FollowAnswer {
  readonly path: string | null;
  readonly line: number | null;
  readonly created: boolean;
}

export interface FollowServices {
  readonly workbench: Pick<Workbench, 'resolveTab' | 'newTab' | 'saveAs' | 'close'>;
  readonly documents: Pick<DocumentStore, 'get'>;
  readonly vault: Pick<Vault, 'resolve' | 'roots'>;
  readonly files: Pick<WorkspaceFiles, 'rootOf' | 'list' | 'readText'>;
}

/**
 * Follows a link of a note to the vault file it names, Obsidian's way (ADR 64), and makes the
 * note when there is none (ADR 76): through the vault's path guard (`Vault.resolve`) and the
 * workbench's save-as, which writes atomically and never over a file that is there. A link that
 * leads out of the workspace, looks absolute or holds a NUL creates nothing and says why.
 */
export async function followLink(services: FollowServices, params: unknown): Promise<FollowAnswer> {
  const parsed = followRequest.safeParse(params);
  if (!parsed.success) throw new ArgumentError('followLink takes {tabId, link: {form, target, heading}}');
  const { tabId, link } = parsed.data;
  const tab = services.workbench.resolveTab(tabId);
  const note = services.documents.get(tab.documentId);
  const target = link.target;
  const shown = JSON.stringify(target);
  if (target === '')
    return {
      path: null,
      line: link.heading === null ? null : headingLine(note.content, link.heading),
      created: false,
    };
  const root =
    note.filePath === null ? (services.vault.roots()[0] ?? null) : services.files.rootOf(note.filePath);
  if (root === null)
    throw new DomainError(
      'INVALID_PATH',
      `The link ${shown} is followed inside a workspace: open its folder first`,
    );
  const notePath = note.filePath === null ? null : toVault(root, note.filePath);
  const files = await services.files.list(root);
  const found = linkTarget(link, notePath ?? '', files);
  if (found !== null) {
    const text = link.heading === null ? null : await services.files.readText(root, found, MAX_NOTE_BYTES);
    return {
      path: path.join(root, ...found.split('/')),
      line: text === null || link.heading === null ? null : headingLine(text, link.heading),
      created: false,
    };
  }
  const planned = newNotePath(link, notePath);
  if ('refused' in planned)
    throw new DomainError('INVALID_PATH', `The link ${shown} ${planned.refused}: nothing was created`);
  // The path guard: lexically, then through the real path of its folder, inside the scope.
  const canonical = await services.vault.resolve(path.join(root, ...planned.path.split('/')));
  if (path.relative(root, canonical).startsWith('..') || path.isAbsolute(path.relative(root, canonical)))
    throw new DomainError(
      'INVALID_PATH',
      `The link ${shown} leads out of the workspace: nothing was created`,
    );
  const { tabId: created } = services.workbench.newTab({ kind: 'markdown', windowLabel: tab.windowLabel });
  try {
    // Save-as of the empty note: atomic, and refused if a file appeared there meanwhile.
    const saved = await services.workbench.saveAs(created, canonical);
    return { path: saved.filePath, line: null, created: true };
  } catch (error) {
    services.workbench.close(created, { force: true });
    throw error;
  }
}

function toVault(root: string, filePath: string): string {
  return path.relative(root, filePath).split(path.sep).join('/');
}

/** The Markdown kind's view provider: `followLink`, what the view asks when the person follows a link. */
export function linkViewProvider(services: FollowServices): ViewProvider {
  return { kind: 'markdown', actions: { followLink: (params) => followLink(services, params) } };
}
