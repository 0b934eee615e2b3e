import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EditorsToken, isArgumentError, type ChangeOrigin } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import { HostHooksToken } from '../../core/tokens/host-tokens.js';
import { HostDocumentStore } from '../../core/documents/document-store.js';
import { createHost, type Host } from '../../core/composition/host.js';
import { DocumentAuthority } from '../../core/shell/server/document-authority.js';
import { acceptEditorReport, type EditorReportServices } from '../../core/shell/server/editor-report.js';
import { FocusedEditor, type PlacedReport } from '../../core/workbench/focused-editor.js';

const placed = (over: Partial<PlacedReport> = {}): PlacedReport => ({
  tabId: 'tab-1',
  documentId: 'doc-1',
  mode: 'source',
  from: 0,
  to: 5,
  focused: true,
  version: 0,
  revision: 'rev-aaaaaaaa',
  length: 11,
  ...over,
});

describe('FocusedEditor', () => {
  it('has no editor until a page reports one, and none once the page is gone', () => {
    const editors = new FocusedEditor();
    const page = {};
    expect(editors.focused()).toBeNull();
    editors.report(page, placed());
    expect(editors.focused()).toEqual({
      tabId: 'tab-1',
      documentId: 'doc-1',
      mode: 'source',
      selection: { from: 0, to: 5 },
      revision: 'rev-aaaaaaaa',
    });
    editors.forget(page);
    expect(editors.focused()).toBeNull();
    editors.report(page, placed());
    editors.report(page, null);
    expect(editors.focused()).toBeNull();
  });

  it('keeps the editor the person focused last, also after it lost focus to another application', () => {
    const editors = new FocusedEditor();
    const [first, second] = [{}, {}];
    editors.report(first, placed({ tabId: 'tab-1' }));
    editors.report(second, placed({ tabId: 'tab-2' }));
    expect(editors.focused()?.tabId).toBe('tab-2');
    editors.report(second, placed({ tabId: 'tab-2', focused: false }));
    expect(editors.focused()?.tabId).toBe('tab-2');
    editors.report(first, placed({ tabId: 'tab-1', focused: false }));
    editors.report(first, placed({ tabId: 'tab-1', focused: true, from: 1 }));
    expect(editors.focused()).toMatchObject({ tabId: 'tab-1', selection: { from: 1, to: 5 } });
  });

  it.each([
    ['a start after the end', { from: 6, to: 5 }],
    ['an end past the text', { from: 0, to: 12 }],
    ['a negative start', { from: -1, to: 5 }],
    ['a fractional offset', { from: 0.5, to: 5 }],
  ])('refuses %s and keeps what it had', (_, bad) => {
    const editors = new FocusedEditor();
    const page = {};
    editors.report(page, placed());
    let thrown: unknown;
    try {
      editors.report(page, placed(bad));
    } catch (error) {
      thrown = error;
    }
    expect(isArgumentError(thrown)).toBe(true);
    expect(editors.focused()?.selection).toEqual({ from: 0, to: 5 });
  });

  it('moves a selection with the changes made before and inside it, as CodeMirror does', () => {
    const editors = new FocusedEditor();
    const page = {};
    // "Hello world": "world" selected.
    editors.report(page, placed({ from: 6, to: 11 }));
    editors.mapThrough(page, 'doc-1', 0, [{ clientID: 'host', changes: [[0, 'Oh, '], 11] }], 'rev-bbbbbbbb');
    expect(editors.focused()).toMatchObject({ selection: { from: 10, to: 15 }, revision: 'rev-bbbbbbbb' });
    // The selected text replaced as a whole: the new text is selected, as in the editor.
    editors.mapThrough(page, 'doc-1', 1, [{ clientID: 'host', changes: [10, [5, 'there']] }], 'rev-cccccccc');
    expect(editors.focused()?.selection).toEqual({ from: 10, to: 15 });
    // A cursor goes after text the host inserted at it, and stays before another editor's.
    editors.report(page, placed({ from: 3, to: 3, version: 2, length: 15 }));
    editors.mapThrough(page, 'doc-1', 2, [{ clientID: 'host', changes: [3, [0, 'xy'], 12] }], 'rev-dddddddd');
    expect(editors.focused()?.selection).toEqual({ from: 5, to: 5 });
    editors.mapThrough(
      page,
      'doc-1',
      3,
      [{ clientID: 'page-2', changes: [5, [0, 'z'], 12] }],
      'rev-eeeeeeee',
    );
    expect(editors.focused()?.selection).toEqual({ from: 5, to: 5 });
  });

  it('drops a selection that missed an update, and ignores other documents', () => {
    const editors = new FocusedEditor();
    const page = {};
    editors.report(page, placed());
    editors.mapThrough(page, 'doc-2', 7, [{ clientID: 'host', changes: [[0, 'x'], 3] }], 'rev-bbbbbbbb');
    expect(editors.focused()?.selection).toEqual({ from: 0, to: 5 });
    editors.mapThrough(page, 'doc-1', 3, [{ clientID: 'host', changes: [[0, 'x'], 11] }], 'rev-bbbbbbbb');
    expect(editors.focused()).toBeNull();
  });
});

describe('editor reports against a real host', () => {
  const manifest: unknown = JSON.parse(
    readFileSync(new URL('../../plugins/document/manifest.json', import.meta.url), 'utf8'),
  );
  const AI: ChangeOrigin = {
    kind: 'mcp',
    caller: { connectionId: 'c', clientName: 't', clientVersion: '1', principal: null },
    tool: 'document',
    action: 'write',
  };
  let host: Host;
  let services: EditorReportServices;
  let tabId: string;
  let documentId: string;
  const page = {};

  beforeEach(async () => {
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-focused-home-'));
    const workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-focused-ws-')));
    await fs.writeFile(path.join(workspace, 'notes.md'), 'Hello world\n');
    host = await createHost({
      home,
      userPlugins: false,
      extraPlugins: [
        { source: 'inline', dir: null, raw: manifest, load: () => Promise.resolve(documentPlugin) },
      ],
    });
    await host.workbench.openWorkspace(workspace);
    tabId = (await host.workbench.openFile(path.join(workspace, 'notes.md'))).tabId;
    documentId = host.workbench.resolveTab(tabId).documentId;
    const documents = host.container.get(HostDocumentStore);
    const focusedEditor = host.container.get(FocusedEditor);
    const authority = new DocumentAuthority(documents, host.container.get(HostHooksToken));
    // What a UI connection does with the updates it forwards to its page.
    authority.onUpdates((id, version, updates) =>
      focusedEditor.mapThrough(page, id, version, updates, documents.get(id).revision),
    );
    services = { workbench: host.workbench, documents, authority, focusedEditor };
  });
  afterEach(async () => {
    services.authority.dispose();
    await host.dispose();
  });

  const report = (version: number, from: number, to: number) =>
    acceptEditorReport(page, { tabId, mode: 'wysiwyg', version, from, to, focused: true }, services);

  it('is the service plugins get as EditorsToken', () => {
    expect(host.container.get(EditorsToken)).toBe(services.focusedEditor);
  });

  it('takes a report at the current version with the current revision', () => {
    expect(report(0, 6, 11)).toEqual({ accepted: true });
    expect(services.focusedEditor.focused()).toEqual({
      tabId,
      documentId,
      mode: 'wysiwyg',
      selection: { from: 6, to: 11 },
      revision: services.documents.get(documentId).revision,
    });
  });

  it('maps the selection over an AI write and refuses a report made before it', async () => {
    report(0, 6, 11);
    await services.documents.replace(documentId, 'Oh, Hello world\n', { origin: AI });
    const revision = services.documents.get(documentId).revision;
    expect(services.focusedEditor.focused()).toMatchObject({ selection: { from: 10, to: 15 }, revision });
    // The page had not yet received the write: its positions count in the old text.
    expect(report(0, 0, 2)).toEqual({ accepted: false });
    expect(services.focusedEditor.focused()?.selection).toEqual({ from: 10, to: 15 });
    expect(report(1, 0, 2)).toEqual({ accepted: true });
    expect(services.focusedEditor.focused()?.selection).toEqual({ from: 0, to: 2 });
  });

  it('refuses a report for a tab that does not exist, changing nothing', () => {
    report(0, 6, 11);
    expect(() =>
      acceptEditorReport(
        page,
        { tabId: 'tab-404', mode: 'source', version: 0, from: 0, to: 0, focused: true },
        services,
      ),
    ).toThrow(expect.objectContaining({ code: 'INVALID_TAB' }));
    expect(services.focusedEditor.focused()?.tabId).toBe(tabId);
  });
});
