import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ClientCredentials, PROVIDERS_FILE } from './client-credentials.js';

let home: string;
let credentials: ClientCredentials;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-principals-'));
  credentials = new ClientCredentials(home);
});

describe('ClientCredentials', () => {
  it('identifies the client whose token was minted', async () => {
    const claude = await credentials.mint('claude-code');
    const cursor = await credentials.mint('cursor');
    expect(credentials.identify(claude)).toBe('claude-code');
    expect(credentials.identify(cursor)).toBe('cursor');
  });

  it('stores digests only, in a file only its owner can read', async () => {
    const token = await credentials.mint('claude-code');
    const text = await readFile(path.join(home, PROVIDERS_FILE), 'utf8');
    expect(text).not.toContain(token);
    expect((await stat(path.join(home, PROVIDERS_FILE))).mode & 0o777).toBe(0o600);
  });

  it('re-minting replaces the earlier credential', async () => {
    const first = await credentials.mint('claude-code');
    const second = await credentials.mint('claude-code');
    expect(credentials.identify(first)).toBeNull();
    expect(credentials.identify(second)).toBe('claude-code');
    expect(credentials.list()).toHaveLength(1);
  });

  it('a revoked client is anonymous from then on', async () => {
    const token = await credentials.mint('claude-code');
    expect(await credentials.revoke('claude-code')).toBe(true);
    expect(credentials.identify(token)).toBeNull();
    expect(await credentials.revoke('claude-code')).toBe(false);
  });
});

describe('identify fails closed', () => {
  it('no token, an empty token or an unknown token names nobody', async () => {
    await credentials.mint('claude-code');
    expect(credentials.identify(undefined)).toBeNull();
    expect(credentials.identify('')).toBeNull();
    expect(credentials.identify('not-a-token')).toBeNull();
  });

  it('a client name is never a credential', async () => {
    await credentials.mint('claude-code');
    expect(credentials.identify('claude-code')).toBeNull();
  });

  it('a token shared by two providers is ambiguous', async () => {
    const digest = 'a'.repeat(64);
    await writeFile(
      path.join(home, PROVIDERS_FILE),
      JSON.stringify({
        format: 1,
        providers: [
          { id: 'one', tokenSha256: digest, created: 'x' },
          { id: 'two', tokenSha256: digest, created: 'x' },
        ],
      }),
    );
    expect(credentials.list()).toHaveLength(2);
    // The digest itself is not a token either.
    expect(credentials.identify(digest)).toBeNull();
  });

  it('a malformed or foreign file counts as no providers', async () => {
    await writeFile(path.join(home, PROVIDERS_FILE), '{"format":2,"providers":[]}');
    expect(credentials.list()).toEqual([]);
    await writeFile(path.join(home, PROVIDERS_FILE), 'not json');
    expect(credentials.list()).toEqual([]);
  });

  it('refuses client names that could not be typed back safely', async () => {
    for (const bad of ['', ' claude', 'a/b', '../x', 'x'.repeat(65), 'name with space'])
      await expect(credentials.mint(bad)).rejects.toThrow(/client name/);
  });

  it('follows the file when another process changes it', async () => {
    const token = await credentials.mint('claude-code');
    expect(credentials.identify(token)).toBe('claude-code');
    await new ClientCredentials(home).revoke('claude-code');
    expect(credentials.identify(token)).toBeNull();
  });
});
