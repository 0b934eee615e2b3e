import type { DocumentSnapshot, WriteProposal } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { createHostHooks } from './host-hooks.js';
import { pluginHooks } from './plugin-hooks.js';

const doc: DocumentSnapshot = {
  id: 'doc-1',
  filePath: null,
  content: '',
  revision: 'rev-AAAAAAAA',
  kind: 'markdown',
  dirty: false,
};

describe('pluginHooks', () => {
  it('names taps after the plugin', () => {
    const hooks = createHostHooks();
    pluginHooks(hooks, 'coherence').tap('documentSaved', () => {});
    expect(hooks.documentSaved.taps.map((t) => t.name)).toEqual(['coherence']);
  });

  it('stops calling a tap once it is disposed, even after the hook has been compiled', () => {
    const hooks = createHostHooks();
    const seen: string[] = [];
    const a = pluginHooks(hooks, 'a').tap('documentSaved', () => seen.push('a'));
    pluginHooks(hooks, 'b').tap('documentSaved', () => seen.push('b'));
    hooks.documentSaved.call({ document: doc, hold: () => {} });
    a.dispose();
    hooks.documentSaved.call({ document: doc, hold: () => {} });
    expect(seen).toEqual(['a', 'b', 'b']);
    a.dispose();
    expect(hooks.documentSaved.taps).toHaveLength(1);
  });

  it('runs waterfall taps in order and lets them rewrite or veto a write', async () => {
    const hooks = createHostHooks();
    pluginHooks(hooks, 'upper').tapWaterfall('beforeDocumentWrite', (p) => ({
      ...p,
      content: p.content.toUpperCase(),
    }));
    const veto = pluginHooks(hooks, 'guard').tapWaterfall('beforeDocumentWrite', (p) => ({
      ...p,
      veto: 'locked',
    }));
    const proposal: WriteProposal = { document: doc, content: 'hi', origin: { kind: 'host' } };
    expect(await hooks.beforeDocumentWrite.promise(proposal)).toMatchObject({
      content: 'HI',
      veto: 'locked',
    });
    veto.dispose();
    expect(await hooks.beforeDocumentWrite.promise(proposal)).toEqual({ ...proposal, content: 'HI' });
  });
});
