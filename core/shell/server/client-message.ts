import { z } from 'zod';
import type { ChangeSetJson, ClientMessage } from '../../protocol/protocol.js';
import { MAX_QUERY_CHARS } from '../../matching/search-pattern.js';

/*
 * The renderer's requests, checked at the door: whatever arrives on the socket
 * is untrusted until it parses. Change sets are checked for shape here and for
 * fit against the document when they are applied.
 */

const tabId = z.string().min(1).max(200);
const changeSet: z.ZodType<ChangeSetJson> = z.array(
  z.union([z.number().int().nonnegative(), z.tuple([z.number().int().nonnegative()]).rest(z.string())]),
);
const update = z.object({ clientID: z.string().min(1).max(200), changes: changeSet });
const offset = z.number().int().nonnegative();
const platform = z.enum(['mac', 'other']);
const commandId = z.string().min(1).max(200);
const editorReport = z.object({
  tabId,
  mode: z.enum(['source', 'wysiwyg']),
  version: offset,
  from: offset,
  to: offset,
  focused: z.boolean(),
});
const searchOptions = z.object({ caseSensitive: z.boolean(), wholeWord: z.boolean(), regex: z.boolean() });
/** A path from the file list: absolute, bounded (PATH_MAX); NUL and the rest are the vault guard's to refuse. */
const entryPath = z.string().min(1).max(4096);
/** A name as typed: never trimmed here; the host's `checkEntryName` says what it may not be. */
const entryName = z.string().min(1).max(1024);
const request = <M extends string, P extends z.ZodType>(method: M, params: P) =>
  z.object({ id: z.number().int().nonnegative(), method: z.literal(method), params });

const clientMessage = z.discriminatedUnion('method', [
  request('tree.list', z.object({ path: z.string().min(1) })),
  request('tree.fold', z.object({ path: z.string().min(1) })),
  request('tab.open', z.object({ path: z.string().min(1) })),
  request('tab.switch', z.object({ tabId })),
  request('tab.close', z.object({ tabId, force: z.boolean().optional() })),
  request('tab.save', z.object({ tabId })),
  request(
    'tab.resolveConflict',
    z.object({
      tabId,
      choice: z.enum(['keep-mine', 'take-disk']),
      diskSha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
    }),
  ),
  request('window.focus', z.object({})),
  request('workspace.show', z.object({ workspaceInstanceId: z.string().min(1).max(200) })),
  request('doc.subscribe', z.object({ tabId })),
  request('doc.unsubscribe', z.object({ tabId })),
  request('doc.push', z.object({ tabId, version: z.number().int().nonnegative(), updates: z.array(update) })),
  request('editor.report', z.object({ editor: editorReport.nullable() })),
  request(
    'approval.answer',
    z.object({
      askId: z.string().min(1).max(200),
      answer: z.enum(['allow', 'allow-site', 'allow-until-navigation', 'deny']),
    }),
  ),
  request('plugins.list', z.object({})),
  request('plugins.setEnabled', z.object({ id: z.string().min(1).max(200), enabled: z.boolean() })),
  request('history.list', z.object({ filePath: z.string().min(1).optional() })),
  request('history.restore', z.object({ id: z.string().min(1).max(200) })),
  request('settings.list', z.object({})),
  request(
    'settings.set',
    z.object({
      key: z.string().min(1).max(200),
      value: z.union([z.boolean(), z.number(), z.string().max(10_000)]),
    }),
  ),
  request('settings.reset', z.object({ key: z.string().min(1).max(200) })),
  request('grants.list', z.object({})),
  request(
    'grants.revoke',
    z.union([
      z.object({ id: z.string().min(1).max(200) }).strict(),
      z.object({ origin: z.string().min(1).max(2100) }).strict(),
    ]),
  ),
  request('pluginPanels.list', z.object({})),
  request('commands.list', z.object({ platform })),
  request('commands.run', z.object({ id: commandId, tabId: tabId.nullable() })),
  request(
    'keybindings.set',
    z.object({ id: commandId, key: z.string().min(1).max(100).nullable(), platform }),
  ),
  request('keybindings.reset', z.object({ id: commandId, platform })),
  request('kindViews.list', z.object({})),
  request(
    'kindViews.request',
    z.object({
      pluginId: z.string().min(1).max(200),
      kind: z.string().min(1).max(200),
      method: z.string().min(1).max(200),
      params: z.unknown().optional(),
    }),
  ),
  request(
    'kindViews.watch',
    z.object({
      pluginId: z.string().min(1).max(200),
      kind: z.string().min(1).max(200),
      topic: z.string().min(1).max(200),
      watchId: z.number().int().nonnegative(),
    }),
  ),
  request('kindViews.unwatch', z.object({ watchId: z.number().int().nonnegative() })),
  request(
    'quickOpen.query',
    z.object({ query: z.string().max(500), limit: z.number().int().min(1).max(200).optional() }),
  ),
  request('quickOpen.open', z.object({ path: z.string().min(1), background: z.boolean().optional() })),
  request('search.query', z.object({ query: z.string().max(MAX_QUERY_CHARS), options: searchOptions })),
  request(
    'search.replace',
    z.object({
      query: z.string().max(MAX_QUERY_CHARS),
      options: searchOptions,
      replacement: z.string().max(MAX_QUERY_CHARS),
      files: z
        .array(
          z.object({
            path: z.string().min(1),
            sha256: z.string().regex(/^[0-9a-f]{64}$/),
            skip: z.array(z.number().int().nonnegative()).max(100_000),
          }),
        )
        .max(10_000),
    }),
  ),
  request(
    'files.create',
    z.object({
      folder: entryPath,
      name: entryName,
      type: z.enum(['file', 'folder']),
      unique: z.boolean().optional(),
    }),
  ),
  request('files.rename', z.object({ path: entryPath, name: entryName })),
  request('files.move', z.object({ path: entryPath, folder: entryPath })),
  request('files.delete', z.object({ path: entryPath })),
  request('files.restore', z.object({ trashId: z.string().min(1).max(200) })),
  request('files.duplicate', z.object({ path: entryPath })),
  request('recovery.list', z.object({})),
  request('recovery.restore', z.object({ id: z.string().min(1).max(200) })),
  request('recovery.discard', z.object({ id: z.string().min(1).max(200) })),
  request(
    'pluginPanels.request',
    z.object({
      pluginId: z.string().min(1).max(200),
      panelId: z.string().min(1).max(200),
      method: z.string().min(1).max(200),
      params: z.unknown().optional(),
    }),
  ),
]) satisfies z.ZodType<ClientMessage>;

/** The parsed request, or why it is not one (and its id, when that much could be read). */
export function parseClientMessage(
  raw: string,
): { ok: true; message: ClientMessage } | { ok: false; id: number | null; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, id: null, reason: 'not JSON' };
  }
  const parsed = clientMessage.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const id = z.object({ id: z.number().int() }).safeParse(value);
  return { ok: false, id: id.success ? id.data.id : null, reason: z.prettifyError(parsed.error) };
}
