import { access, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../../plugins/document/src/index.js';
import coherencePlugin from '../../plugins/coherence/src/index.js';
import { readIdentity, uuidv7 } from '../../plugins/coherence/src/kernel/identity/index.js';
import { readLedger } from '../../plugins/coherence/src/kernel/ledger/index.js';
import { GrantRecord } from '../../plugins/coherence/src/delegation/grant-record.js';
import { CoherenceWorkspace } from '../../plugins/coherence/src/workspace/coherence-workspace.js';
import { loadWriterId } from '../../plugins/coherence/src/workspace/writer-id.js';

const plugins = [
  {
    manifest: readManifest(new URL('../../plugins/document/manifest.json', import.meta.url)),
    plugin: documentPlugin,
  },
  {
    manifest: readManifest(new URL('../../plugins/coherence/manifest.json', import.meta.url)),
    plugin: coherencePlugin,
  },
];

let workspace: string;
let kit: TestHost;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-coherence-')));
  await writeFile(path.join(workspace, 'elena.md'), '# Elena\n\nElena is a smith.\n');
  await writeFile(path.join(workspace, 'chapter-3.md'), '# Chapter 3\n');
});
afterEach(async () => {
  await kit?.dispose();
  await rm(workspace, { recursive: true, force: true });
});

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

async function start(principal?: string): Promise<void> {
  kit = await startTestHost({ plugins, workspace, principal });
}

async function tabOf(file: string): Promise<string> {
  const opened = await kit.call('workspace', { action: 'open', filePath: path.join(workspace, file) });
  return (opened.data as { tabId: string }).tabId;
}

/** An AI reads elena.md and writes chapter-3.md from it. */
async function deriveChapterFromElena(): Promise<void> {
  const elena = await tabOf('elena.md');
  const chapter = await tabOf('chapter-3.md');
  await kit.call('document', { action: 'read', tabId: elena });
  const write = await kit.call('document', {
    action: 'write',
    tabId: chapter,
    content: '# Chapter 3\n\nElena forged a blade.\n',
  });
  expect(write.isError).toBe(false);
  // Any coherence call waits for the capture of the writes before it.
  await kit.call('coherence', { action: 'status', workspace_root: workspace });
}

const edges = async () => (await kit.call('coherence', { action: 'edges', workspace_root: workspace })).data;

async function editElenaOutside(): Promise<void> {
  const file = path.join(workspace, 'elena.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('a smith', 'a baker'));
}

async function grant(scope: ('resolve.accept-newer' | 'resolve.waive')[], to = 'claude-code') {
  const coherence = new CoherenceWorkspace(
    workspace,
    await loadWriterId(kit.home),
    new GrantRecord(kit.home),
  );
  return coherence.delegate({
    delegate: to,
    scope,
    expires: new Date(Date.now() + 86_400_000),
    actor: 'Ada',
  });
}

describe('capture', () => {
  it('records a write made from a read: both documents get identities, the edge is fresh', async () => {
    await start();
    await deriveChapterFromElena();
    expect(await exists(path.join(workspace, '.vmark', '.gitattributes'))).toBe(true);
    const elena = readIdentity(await readFile(path.join(workspace, 'elena.md'), 'utf8'));
    const chapter = readIdentity(await readFile(path.join(workspace, 'chapter-3.md'), 'utf8'));
    expect(elena.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(chapter.id).toMatch(/^[0-9a-f-]{36}$/);

    const ledger = await readLedger(path.join(workspace, '.vmark'));
    const model = ledger.entries.find(
      (e) => e.kind === 'transformation' && (e.body as { agent: { type: string } }).agent.type === 'model',
    );
    expect(model?.body).toMatchObject({
      inputs: [{ object: elena.id, role: 'direct' }],
      outputs: [{ object: chapter.id }],
      agent: { type: 'model', id: 'vmark-test-kit' },
      confidence: 'inferred',
    });
    expect(await edges()).toEqual([]);
    expect((await kit.call('coherence', { action: 'status', workspace_root: workspace })).data).toEqual({
      initialized: true,
      objects: 2,
      open_items: 0,
      quarantined: 0,
      writer: await loadWriterId(kit.home),
    });
  });

  it('shows the derived document version-stale once its upstream changes on disk', async () => {
    await start();
    await deriveChapterFromElena();
    await editElenaOutside();
    const rows = (await edges()) as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({
        upstream_path: 'elena.md',
        downstream_path: 'chapter-3.md',
        state: 'version-stale',
        input: 0,
        confidence: 'inferred',
        kind: 'dependency',
        prior_waivers: 0,
        frozen_downstream: false,
        actionable: true,
      }),
    ]);
    // The scan recorded the outside edit once; asking again records nothing more.
    const before = (await readLedger(path.join(workspace, '.vmark'))).entries.length;
    expect(await edges()).toEqual(rows);
    expect((await readLedger(path.join(workspace, '.vmark'))).entries.length).toBe(before);
  });

  it('follows a moved file, and a fresh index (a new process) answers exactly the same', async () => {
    await start();
    await deriveChapterFromElena();
    await editElenaOutside();
    await mkdir(path.join(workspace, 'scenes'));
    await rename(path.join(workspace, 'chapter-3.md'), path.join(workspace, 'scenes', 'chapter-3.md'));
    const rows = (await edges()) as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({ downstream_path: 'scenes/chapter-3.md', state: 'version-stale' }),
    ]);
    const ledger = await readFile(
      path.join(workspace, '.vmark', 'ledger', `${await loadWriterId(kit.home)}.jsonl`),
      'utf8',
    );
    // Nothing kept in memory matters: the index is derived from the ledger and the files.
    const rebuilt = new CoherenceWorkspace(
      workspace,
      await loadWriterId(kit.home),
      new GrantRecord(kit.home),
    );
    expect(await rebuilt.edges()).toEqual(rows);
    expect(await rebuilt.status()).toEqual(
      (await kit.call('coherence', { action: 'status', workspace_root: workspace })).data,
    );
    // A move is an index update, never a ledger entry.
    expect(
      await readFile(
        path.join(workspace, '.vmark', 'ledger', `${await loadWriterId(kit.home)}.jsonl`),
        'utf8',
      ),
    ).toBe(ledger);
  });

  it('holds the capture of a document whose id another file carries too, until only one does', async () => {
    await start();
    await deriveChapterFromElena();
    await writeFile(
      path.join(workspace, 'copy.md'),
      await readFile(path.join(workspace, 'chapter-3.md'), 'utf8'),
    );
    const models = async () =>
      (await readLedger(path.join(workspace, '.vmark'))).entries.filter(
        (e) => (e.body as { agent?: { type: string } }).agent?.type === 'model',
      ).length;
    const elena = await tabOf('elena.md');
    const chapter = await tabOf('chapter-3.md');
    await kit.call('document', { action: 'read', tabId: elena });
    const current = (await kit.call('document', { action: 'read', tabId: chapter })).data as {
      content: string;
    };
    await kit.call('document', { action: 'read', tabId: elena });
    await kit.call('document', { action: 'write', tabId: chapter, content: `${current.content}\nMore.\n` });
    await kit.call('coherence', { action: 'status', workspace_root: workspace });
    expect(await models()).toBe(1);
    // The scan records the finding once, for every reader.
    await edges();
    await edges();
    const diagnostics = (await readLedger(path.join(workspace, '.vmark'))).entries.filter(
      (e) => e.kind === 'diagnostic',
    );
    expect(diagnostics).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({ code: 'duplicate-id', paths: ['chapter-3.md', 'copy.md'] }),
      }),
    ]);
  });

  it('does not start a ledger for a write made from nothing read', async () => {
    await start();
    const chapter = await tabOf('chapter-3.md');
    await kit.call('document', { action: 'write', tabId: chapter, content: '# Chapter 3\n\nNew.\n' });
    expect(await exists(path.join(workspace, '.vmark'))).toBe(false);
    expect(await readFile(path.join(workspace, 'chapter-3.md'), 'utf8')).toBe('# Chapter 3\n\nNew.\n');
  });

  it('does not take reading and rewriting one document for a derivation', async () => {
    await start();
    const chapter = await tabOf('chapter-3.md');
    await kit.call('document', { action: 'read', tabId: chapter });
    await kit.call('document', { action: 'write', tabId: chapter, content: '# Chapter 3\n\nEdited.\n' });
    expect(await exists(path.join(workspace, '.vmark'))).toBe(false);
  });

  it('forgets the read set after a write: the next write has no inputs', async () => {
    await start();
    await deriveChapterFromElena();
    const chapter = await tabOf('chapter-3.md');
    const current = (await kit.call('document', { action: 'read', tabId: chapter })).data as {
      content: string;
    };
    await kit.call('document', { action: 'write', tabId: chapter, content: current.content + '\nMore.\n' });
    expect(await edges()).toEqual([]);
    const ledger = await readLedger(path.join(workspace, '.vmark'));
    const models = ledger.entries.filter(
      (e) => (e.body as { agent?: { type: string } }).agent?.type === 'model',
    );
    expect(models.map((e) => (e.body as { inputs: unknown[] }).inputs.length)).toEqual([1, 0]);
  });
});

describe('coherence arguments', () => {
  it('refuses a missing, relative or closed workspace_root with the original plain strings', async () => {
    await start();
    expect(await kit.call('coherence', { action: 'status' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('workspace_root (string) is required'),
    });
    expect(await kit.call('coherence', { action: 'edges', workspace_root: 'vault' })).toMatchObject({
      isError: true,
      text: 'workspace_root must be an absolute path, got: vault',
    });
    expect(
      await kit.call('coherence', { action: 'edges', workspace_root: path.join(workspace, 'nope') }),
    ).toMatchObject({
      isError: true,
      text: `workspace_root is not an accessible directory: ${path.join(workspace, 'nope')}`,
    });
    const other = await mkdtemp(path.join(os.tmpdir(), 'vmark-coherence-other-'));
    expect((await kit.call('coherence', { action: 'status', workspace_root: other })).text).toMatch(
      /not a workspace open in VMark/,
    );
    expect(await readdir(other)).toEqual([]);
    await rm(other, { recursive: true });
  });

  it('answers status of a workspace that does not capture yet without creating anything', async () => {
    await start();
    expect((await kit.call('coherence', { action: 'status', workspace_root: workspace })).data).toMatchObject(
      {
        initialized: false,
        objects: 0,
        open_items: 0,
        quarantined: 0,
      },
    );
    expect((await kit.call('coherence', { action: 'edges', workspace_root: workspace })).data).toEqual([]);
    expect((await kit.call('coherence', { action: 'contexts', workspace_root: workspace })).data).toEqual([
      {
        id: '00000000-0000-0000-0000-000000000000',
        name: 'default',
        parent: null,
        enforcement: 'greenhouse',
        visibleClaims: 0,
        errors: [],
      },
    ]);
    expect((await kit.call('coherence', { action: 'claims', workspace_root: workspace })).data).toEqual([]);
    expect(await exists(path.join(workspace, '.vmark'))).toBe(false);
  });
});

describe('coherence_resolve', () => {
  async function staleEdge(): Promise<{ txf: string; input: number }> {
    await deriveChapterFromElena();
    await editElenaOutside();
    const [row] = (await edges()) as { txf: string; input: number }[];
    return { txf: row!.txf, input: row!.input };
  }

  it('refuses an anonymous client, whatever it asks', async () => {
    await start();
    const edge = await staleEdge();
    const out = await kit.call('coherence_resolve', {
      action: 'resolve',
      workspace_root: workspace,
      ...edge,
      resolution: 'accept-newer',
    });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/no VMark client credential/);
  });

  it('refuses an installed client without a grant, then accepts under one and names it', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    const args = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' };
    expect(await kit.call('coherence_resolve', args)).toMatchObject({
      isError: true,
      text: 'no live delegation authorizes "claude-code" for resolve.accept-newer',
    });
    // A grant for another client or another scope does not help.
    await grant(['resolve.accept-newer'], 'cursor');
    await grant(['resolve.waive']);
    expect((await kit.call('coherence_resolve', args)).isError).toBe(true);

    const { grant: grantId } = await grant(['resolve.accept-newer']);
    const receipt = await kit.call('coherence_resolve', args);
    expect(receipt.isError).toBe(false);
    expect(receipt.data).toEqual({
      entry_id: expect.any(String),
      kind: 'ratification',
      resolved_against: expect.stringMatching(/^rev1:/),
    });
    const ledger = await readLedger(path.join(workspace, '.vmark'));
    const entry = ledger.entries.find((e) => e.id === (receipt.data as { entry_id: string }).entry_id);
    expect(entry?.body).toMatchObject({
      actor: { type: 'agent', id: 'claude-code' },
      delegation: grantId,
      edge,
    });
    expect(await edges()).toEqual([]);
    // Resolved: the edge is no longer live.
    expect((await kit.call('coherence_resolve', args)).text).toBe(
      'edge is not live (historical, fresh, or suppressed)',
    );
  });

  it('refuses a waiver without a reason and records one with it', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    await grant(['resolve.waive']);
    const args = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'waive' };
    expect((await kit.call('coherence_resolve', args)).text).toBe('a waiver requires a reason (spec §5.4.3)');
    expect((await kit.call('coherence_resolve', { ...args, reason: '   ' })).text).toBe(
      'a waiver requires a reason (spec §5.4.3)',
    );
    const ok = await kit.call('coherence_resolve', {
      ...args,
      reason: 'the blade scene does not depend on her trade',
    });
    expect(ok.data).toMatchObject({ kind: 'waiver' });
    expect(await edges()).toEqual([expect.objectContaining({ state: 'waived', prior_waivers: 1 })]);
  });

  it('refuses unknown edges and bad arguments with the original messages', async () => {
    await start('claude-code');
    await staleEdge();
    await grant(['resolve.accept-newer']);
    const base = { action: 'resolve', workspace_root: workspace, resolution: 'accept-newer' };
    expect(
      (
        await kit.call('coherence_resolve', {
          ...base,
          txf: '0198c0de-0000-7000-8000-00000000000a',
          input: 0,
        })
      ).text,
    ).toBe('no such edge: 0198c0de-0000-7000-8000-00000000000a#0');
    expect((await kit.call('coherence_resolve', { ...base, txf: 'nope', input: 0 })).text).toContain(
      'txf (uuid) is required',
    );
    expect(
      (
        await kit.call('coherence_resolve', {
          ...base,
          txf: '0198c0de-0000-7000-8000-00000000000a',
          input: -1,
        })
      ).text,
    ).toContain('input must be a number in the u32 range');
    expect(
      (
        await kit.call('coherence_resolve', {
          ...base,
          resolution: 'approve',
          txf: '0198c0de-0000-7000-8000-00000000000a',
          input: 0,
        })
      ).text,
    ).toContain('resolution is required: accept-newer | waive');
  });

  /** This installation's ledger segment, where a hand edit lands. */
  async function segment(): Promise<string> {
    return path.join(workspace, '.vmark', 'ledger', `${await loadWriterId(kit.home)}.jsonl`);
  }

  /** Drops the ledger lines that mention `text`, as a hand edit would. */
  async function dropLines(text: string): Promise<void> {
    const file = await segment();
    const kept = (await readFile(file, 'utf8')).split('\n').filter((l) => !l.includes(text));
    await writeFile(file, kept.join('\n'));
  }

  it('a revocation dropped from the ledger does not revive the grant', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    const { grant: grantId } = await grant(['resolve.accept-newer']);
    const coherence = new CoherenceWorkspace(
      workspace,
      await loadWriterId(kit.home),
      new GrantRecord(kit.home),
    );
    const revoked = await coherence.revoke(grantId, 'Ada');
    await dropLines(revoked!.entryId!);
    const args = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' };
    const out = await kit.call('coherence_resolve', args);
    expect(out.isError).toBe(true);
    expect(out.text).toContain(`the ledger and the person's record disagree about grant ${grantId}`);
    expect(out.text).toContain("live in the ledger but revoked or absent in the person's record");
  });

  it('revoke also clears a grant only the record still holds', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    const { grant: grantId } = await grant(['resolve.accept-newer']);
    // The delegation line is gone from the ledger (a hand edit, a git reset): the record disagrees.
    await dropLines(grantId);
    const args = { action: 'resolve', workspace_root: workspace, ...edge, resolution: 'accept-newer' };
    expect((await kit.call('coherence_resolve', args)).text).toContain(
      "live in the person's record but revoked, changed or absent in the ledger",
    );
    const coherence = new CoherenceWorkspace(
      workspace,
      await loadWriterId(kit.home),
      new GrantRecord(kit.home),
    );
    expect(await coherence.revoke(grantId, 'Ada')).toEqual({ grant: grantId, entryId: null });
    expect(await coherence.revoke(grantId, 'Ada')).toBeNull();
    expect((await kit.call('coherence_resolve', args)).text).toBe(
      'no live delegation authorizes "claude-code" for resolve.accept-newer',
    );
  });

  it('a grant the record cannot take is withdrawn from the ledger again', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    // The next grant's file name is taken by a folder: the record cannot take the grant.
    const grantId = uuidv7();
    const ids = [grantId];
    const clock = { now: () => new Date(), newId: () => ids.shift() ?? uuidv7() };
    const record = new GrantRecord(kit.home);
    await mkdir(path.join(record.folderOf(workspace), `${grantId}.json`, 'in-the-way'), { recursive: true });
    const coherence = new CoherenceWorkspace(workspace, await loadWriterId(kit.home), record, clock);
    await expect(
      coherence.delegate({
        delegate: 'claude-code',
        scope: ['resolve.accept-newer'],
        expires: new Date(Date.now() + 86_400_000),
        actor: 'Ada',
      }),
    ).rejects.toThrow(/could not be recorded in VMARK_HOME .*revoked in the ledger again/);
    expect(await coherence.delegations()).toEqual([expect.objectContaining({ scope: [], recorded: false })]);
    const out = await kit.call('coherence_resolve', {
      action: 'resolve',
      workspace_root: workspace,
      ...edge,
      resolution: 'accept-newer',
    });
    expect(out.text).toBe('no live delegation authorizes "claude-code" for resolve.accept-newer');
  });

  it('a revoked grant authorizes nothing', async () => {
    await start('claude-code');
    const edge = await staleEdge();
    const { grant: grantId } = await grant(['resolve.accept-newer']);
    const coherence = new CoherenceWorkspace(
      workspace,
      await loadWriterId(kit.home),
      new GrantRecord(kit.home),
    );
    expect(await coherence.revoke(grantId, 'Ada')).toMatchObject({ grant: grantId });
    const out = await kit.call('coherence_resolve', {
      action: 'resolve',
      workspace_root: workspace,
      ...edge,
      resolution: 'accept-newer',
    });
    expect(out.text).toBe('no live delegation authorizes "claude-code" for resolve.accept-newer');
  });
});
