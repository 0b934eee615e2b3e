import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { errorCode, parseJsonAs, z } from '@vmark/sdk';
import { processAlive } from '../vault/process-owner.js';

/**
 * How a command at a terminal finds a running host: `$VMARK_HOME/hosts/<pid>.json`.
 * It holds the control channel's bearer token, so only its owner may read it.
 */
export interface RunningHost {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
  readonly version: string;
  /** ISO 8601. */
  readonly startedAt: string;
  /** Present for `vmark serve`: what `vmark mcp` and `vmark app` need to attach to it. */
  readonly serve?: ServeAnnouncement;
}

/** How to reach the editor host of `vmark serve`. The token is its per-launch UI/MCP token. */
export interface ServeAnnouncement {
  /** The page, token included. */
  readonly uiUrl: string;
  /** Streamable HTTP on the UI port; takes `token` (or an installed client's credential) as bearer. */
  readonly mcpUrl: string;
  readonly token: string;
  /** The workspace folders the host was started with (absolute, real paths). */
  readonly workspaceRoots: readonly string[];
}

const HOST_FILE = /^(\d+)\.json$/;

export function hostsFolder(home: string): string {
  return path.join(home, 'hosts');
}

export function hostFilePath(home: string, pid: number): string {
  return path.join(hostsFolder(home), `${pid}.json`);
}

/** Writes this process's host file (mode 0600 in a 0700 folder) and returns its path. */
export async function writeHostFile(home: string, host: RunningHost): Promise<string> {
  const folder = hostsFolder(home);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask and ignored for a folder that exists already.
  await fs.chmod(folder, 0o700);
  const file = hostFilePath(home, host.pid);
  // Created 0600 and empty before the token goes in: writeFileAtomic keeps the mode of the
  // file it replaces, so the token is never in a file others may read. O_NOFOLLOW: never
  // chmod whatever a planted link points at.
  const handle = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  await writeFileAtomic(file, JSON.stringify(host) + '\n');
  return file;
}

/**
 * The hosts of this `VMARK_HOME` whose process is alive. A file left by a host
 * that died without cleaning up is deleted on the way. A file being written (or
 * not ours to understand) is skipped, not deleted: its process is still alive.
 */
export async function listRunningHosts(home: string): Promise<RunningHost[]> {
  const folder = hostsFolder(home);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const hosts: RunningHost[] = [];
  for (const name of names.sort()) {
    const pid = Number(HOST_FILE.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const file = path.join(folder, name);
    if (!processAlive(pid)) {
      await fs.rm(file, { force: true });
      continue;
    }
    const host = parseHost(await fs.readFile(file, 'utf8').catch(() => ''));
    if (host?.pid === pid) hosts.push(host);
  }
  return hosts.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

const serveSchema = z.object({
  uiUrl: z.string().refine(isLoopbackUrl),
  mcpUrl: z.string().refine(isLoopbackUrl),
  token: z.string().min(1),
  workspaceRoots: z.array(z.string().refine((root) => path.isAbsolute(root))),
});

const hostSchema = z.object({
  pid: z.number(),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(1),
  version: z.string(),
  startedAt: z.string(),
  serve: z.unknown().optional(),
});

function parseHost(text: string): RunningHost | null {
  const parsed = parseJsonAs(hostSchema, text);
  if (parsed === undefined) return null;
  const { serve, ...host } = parsed;
  if (serve === undefined) return host;
  // A malformed announcement makes the host unreachable for attaching, not invisible to `approvals`.
  const announced = serveSchema.safeParse(serve);
  return announced.success ? { ...host, serve: announced.data } : host;
}

/** The token goes wherever the file points: never anywhere but this machine's loopback. */
function isLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'http:' && url.hostname === '127.0.0.1';
}
