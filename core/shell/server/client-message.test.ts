import { describe, expect, it } from 'vitest';
import { parseClientMessage } from './client-message.js';

describe('parseClientMessage', () => {
  it('accepts every request the protocol names', () => {
    const push = {
      id: 3,
      method: 'doc.push',
      params: { tabId: 'tab-1', version: 2, updates: [{ clientID: 'c', changes: [1, [0, 'a']] }] },
    };
    expect(parseClientMessage(JSON.stringify(push))).toEqual({ ok: true, message: push });
    const open = { id: 1, method: 'tab.open', params: { path: '/v/a.md' } };
    expect(parseClientMessage(JSON.stringify(open))).toEqual({ ok: true, message: open });
  });

  it('refuses what is not a request, keeping its id to answer when it has one', () => {
    expect(parseClientMessage('{')).toMatchObject({ ok: false, id: null });
    expect(parseClientMessage(JSON.stringify({ id: 7, method: 'fs.delete', params: {} }))).toMatchObject({
      ok: false,
      id: 7,
    });
    const negative = { id: 8, method: 'doc.push', params: { tabId: 't', version: -1, updates: [] } };
    expect(parseClientMessage(JSON.stringify(negative))).toMatchObject({ ok: false, id: 8 });
    const badChanges = {
      id: 9,
      method: 'doc.push',
      params: { tabId: 't', version: 0, updates: [{ clientID: 'c', changes: [[-2]] }] },
    };
    expect(parseClientMessage(JSON.stringify(badChanges))).toMatchObject({ ok: false, id: 9 });
  });

  it('takes a quick-open query within its bounds only', () => {
    const query = (params: unknown) =>
      parseClientMessage(JSON.stringify({ id: 4, method: 'quickOpen.query', params }));
    expect(query({ query: 'mtg', limit: 50 })).toMatchObject({ ok: true });
    expect(query({ query: 'x'.repeat(501) })).toMatchObject({ ok: false, id: 4 });
    expect(query({ query: 'a', limit: 0 })).toMatchObject({ ok: false, id: 4 });
    expect(query({ query: 'a', limit: 201 })).toMatchObject({ ok: false, id: 4 });
    expect(query({ query: 7 })).toMatchObject({ ok: false, id: 4 });
    const open = (params: unknown) =>
      parseClientMessage(JSON.stringify({ id: 5, method: 'quickOpen.open', params }));
    expect(open({ path: '/v/a.md', background: true })).toMatchObject({ ok: true });
    expect(open({ path: '' })).toMatchObject({ ok: false, id: 5 });
    expect(open({ path: '/v/a.md', background: 'yes' })).toMatchObject({ ok: false, id: 5 });
  });

  it('takes a search and a replace within their bounds only', () => {
    const options = { caseSensitive: false, wholeWord: true, regex: false };
    const search = (params: unknown) =>
      parseClientMessage(JSON.stringify({ id: 6, method: 'search.query', params }));
    expect(search({ query: 'cat', options })).toMatchObject({ ok: true });
    expect(search({ query: 'x'.repeat(1_001), options })).toMatchObject({ ok: false, id: 6 });
    expect(search({ query: 'cat', options: { ...options, regex: 'yes' } })).toMatchObject({ ok: false });
    expect(search({ query: 'cat' })).toMatchObject({ ok: false, id: 6 });
    const replace = (file: unknown) =>
      parseClientMessage(
        JSON.stringify({
          id: 7,
          method: 'search.replace',
          params: { query: 'cat', options, replacement: 'dog', files: [file] },
        }),
      );
    const sha256 = 'a'.repeat(64);
    expect(replace({ path: '/v/a.md', sha256, skip: [0, 3] })).toMatchObject({ ok: true });
    expect(replace({ path: '/v/a.md', sha256: 'abc', skip: [] })).toMatchObject({ ok: false, id: 7 });
    expect(replace({ path: '/v/a.md', sha256, skip: [-1] })).toMatchObject({ ok: false, id: 7 });
    expect(replace({ path: '', sha256, skip: [] })).toMatchObject({ ok: false, id: 7 });
  });

  it('checks the approval, plugin and history requests', () => {
    const ok = (method: string, params: unknown) =>
      parseClientMessage(JSON.stringify({ id: 1, method, params })).ok;
    expect(ok('approval.answer', { askId: 'ask-1', answer: 'deny' })).toBe(true);
    expect(ok('approval.answer', { askId: 'ask-1', answer: 'yes' })).toBe(false);
    expect(ok('approval.answer', { askId: '', answer: 'allow' })).toBe(false);
    expect(ok('plugins.setEnabled', { id: 'workflow', enabled: 'false' })).toBe(false);
    expect(ok('history.list', {})).toBe(true);
    expect(ok('history.list', { filePath: '' })).toBe(false);
    expect(ok('history.restore', { id: 'x'.repeat(201) })).toBe(false);
  });

  it('takes file-list requests within their bounds, names exactly as sent', () => {
    const send = (method: string, params: unknown) =>
      parseClientMessage(JSON.stringify({ id: 5, method, params }));
    expect(send('files.rename', { path: '/v/a.md', name: 'b.md  ' })).toMatchObject({
      ok: true,
      message: { params: { name: 'b.md  ' } },
    });
    // A NUL or a `/` in a name is the host's to refuse, with its reason: it passes the door.
    expect(send('files.rename', { path: '/v/a.md', name: 'a\0b' })).toMatchObject({ ok: true });
    expect(send('files.rename', { path: '/v/a.md', name: '' })).toMatchObject({ ok: false, id: 5 });
    expect(send('files.rename', { path: '/v/a.md', name: 'x'.repeat(1025) })).toMatchObject({
      ok: false,
      id: 5,
    });
    expect(send('files.move', { path: `/${'x'.repeat(4096)}`, folder: '/v' })).toMatchObject({
      ok: false,
      id: 5,
    });
    expect(send('files.create', { folder: '/v', name: 'n', type: 'link' })).toMatchObject({
      ok: false,
      id: 5,
    });
    expect(send('files.create', { folder: '/v', name: 'n', type: 'file', unique: true })).toMatchObject({
      ok: true,
    });
    expect(send('files.delete', { path: 7 })).toMatchObject({ ok: false, id: 5 });
  });
});
