import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostFilePath, hostsFolder, listRunningHosts, type RunningHost, writeHostFile } from './host-file.js';

let home: string;

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-hosts-'));
});

afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

function hostOf(pid: number): RunningHost {
  return { pid, port: 4321, token: 'secret-token', version: '0.1.0', startedAt: '2026-01-02T03:04:05.000Z' };
}

/** The pid of a process that has exited: nothing answers to it any more. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid;
}

describe('writeHostFile', () => {
  it('writes the record with mode 0600 in a 0700 folder', async () => {
    const file = await writeHostFile(home, hostOf(process.pid));
    expect(file).toBe(hostFilePath(home, process.pid));
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(hostOf(process.pid));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(hostsFolder(home))).mode & 0o777).toBe(0o700);
  });

  it('tightens a folder and a file left readable by others', async () => {
    await fs.mkdir(hostsFolder(home), { mode: 0o755 });
    await fs.chmod(hostsFolder(home), 0o755);
    await fs.writeFile(hostFilePath(home, process.pid), 'old', { mode: 0o644 });
    await fs.chmod(hostFilePath(home, process.pid), 0o644);
    const file = await writeHostFile(home, hostOf(process.pid));
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(hostsFolder(home))).mode & 0o777).toBe(0o700);
  });
});

describe('listRunningHosts', () => {
  it('is empty when no host ever ran', async () => {
    expect(await listRunningHosts(home)).toEqual([]);
  });

  it('lists live hosts and deletes the files of dead ones', async () => {
    await writeHostFile(home, hostOf(process.pid));
    const stale = deadPid();
    await writeHostFile(home, hostOf(stale));
    expect(await listRunningHosts(home)).toEqual([hostOf(process.pid)]);
    await expect(fs.access(hostFilePath(home, stale))).rejects.toThrow(/ENOENT/);
    await expect(fs.access(hostFilePath(home, process.pid))).resolves.toBeUndefined();
  });

  it('skips files it cannot understand without deleting those of live processes', async () => {
    const folder = hostsFolder(home);
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, `${process.pid}.json`), '{"pid": ');
    await fs.writeFile(path.join(folder, 'notes.txt'), 'hello');
    await fs.writeFile(path.join(folder, '0.json'), '{}');
    // A record that claims another pid than its name is not trusted.
    await fs.writeFile(path.join(folder, `${process.ppid}.json`), JSON.stringify(hostOf(process.pid)));
    expect(await listRunningHosts(home)).toEqual([]);
    expect((await fs.readdir(folder)).sort()).toEqual(
      ['0.json', `${process.pid}.json`, `${process.ppid}.json`, 'notes.txt'].sort(),
    );
  });
});

describe('a host record that does not hold', () => {
  it.each([
    ['a port of 0', { port: 0 }],
    ['a port past 65535', { port: 65536 }],
    ['a fractional port', { port: 80.5 }],
    ['a port as text', { port: '4321' }],
    ['an empty token', { token: '' }],
    ['no token', { token: undefined }],
    ['a version that is not text', { version: 1 }],
    ['no start time', { startedAt: undefined }],
  ])('with %s is skipped, and kept: its process lives', async (_name, bad) => {
    await fs.mkdir(hostsFolder(home), { recursive: true });
    await fs.writeFile(hostFilePath(home, process.pid), JSON.stringify({ ...hostOf(process.pid), ...bad }));
    expect(await listRunningHosts(home)).toEqual([]);
    expect(await fs.readdir(hostsFolder(home))).toEqual([`${process.pid}.json`]);
  });

  it('is read without the fields it does not know', async () => {
    await fs.mkdir(hostsFolder(home), { recursive: true });
    await fs.writeFile(
      hostFilePath(home, process.pid),
      JSON.stringify({ ...hostOf(process.pid), later: 'field' }),
    );
    expect(await listRunningHosts(home)).toEqual([hostOf(process.pid)]);
  });
});

describe('the serve announcement', () => {
  const serve = {
    uiUrl: 'http://127.0.0.1:4680/?token=abc',
    mcpUrl: 'http://127.0.0.1:4680/mcp',
    token: 'abc',
    workspaceRoots: ['/home/me/notes'],
  };

  it('round-trips what an attaching client needs', async () => {
    await writeHostFile(home, { ...hostOf(process.pid), serve });
    expect(await listRunningHosts(home)).toEqual([{ ...hostOf(process.pid), serve }]);
  });

  it.each([
    ['a URL off this machine', { ...serve, mcpUrl: 'http://attacker.example/mcp' }],
    ['an https or other scheme', { ...serve, mcpUrl: 'file:///etc/passwd' }],
    ['an empty token', { ...serve, token: '' }],
    ['relative workspace roots', { ...serve, workspaceRoots: ['notes'] }],
    ['no roots list', { ...serve, workspaceRoots: 'notes' }],
    ['not an object', 'serve'],
  ])('with %s is dropped: the host stays listed but cannot be attached to', async (_name, bad) => {
    await fs.mkdir(hostsFolder(home), { recursive: true });
    await fs.writeFile(
      hostFilePath(home, process.pid),
      JSON.stringify({ ...hostOf(process.pid), serve: bad }),
    );
    expect(await listRunningHosts(home)).toEqual([hostOf(process.pid)]);
  });
});
