import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentSnapshot } from '@vmark/sdk';
import { isDomainError, runCommandLine } from '@vmark/sdk';
import { HostDocumentStore } from '../documents/document-store.js';
import type { Host } from '../host.js';
import type { Checkpoint, CheckpointEntry } from '../history/checkpoint-entry.js';
import { CheckpointStore, UnknownCheckpointError } from '../history/checkpoint-store.js';
import { sizeChange } from '../history/describe-change.js';
import { CHECKPOINTS_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from './environment.js';
import { startHost } from './start-host.js';
import { terminalIo } from './terminal-io.js';

/** `vmark checkpoints list [--json] [--file PATH]` and `vmark checkpoints restore ID`. */
export function checkpointsCommand(argv: string[]): Promise<number> {
  return runCommandLine(CHECKPOINTS_COMMAND_LINE, argv, terminalIo(), ({ verb, operands, values }) => {
    const store = new CheckpointStore({ home: vmarkHome() });
    return verb === 'list' ? list(store, values.json === true, values.file) : restore(store, operands[0]!);
  });
}

async function list(store: CheckpointStore, json: boolean, file: string | undefined): Promise<number> {
  let entries = await store.list();
  if (file !== undefined) {
    // Checkpoints hold canonical paths; a deleted file has none, so its plain absolute path is tried too.
    const absolute = path.resolve(file);
    const canonical = await realpath(absolute).catch(() => absolute);
    entries = entries.filter((e) => e.filePath === canonical || e.filePath === absolute);
  }
  process.stdout.write(json ? JSON.stringify(entries, null, 2) + '\n' : table(entries));
  return 0;
}

/**
 * Puts back the text from before a checkpoint's edit as a new revision, through
 * a host: the host's save refuses a file that changed on disk meanwhile, and a
 * running `vmark mcp` sees an ordinary change on disk. The restore is itself
 * recorded, so that it can be undone too.
 */
async function restore(store: CheckpointStore, id: string): Promise<number> {
  let checkpoint: Checkpoint;
  try {
    checkpoint = await store.get(id);
  } catch (error) {
    if (error instanceof UnknownCheckpointError)
      return refuse(`${error.message} (see vmark checkpoints list)`);
    throw error;
  }
  const { filePath } = checkpoint;
  if (filePath === null)
    return refuse(`checkpoint ${id} is of an untitled document: there is no file to restore`);
  if (!(await isFile(filePath))) {
    return refuse(`${JSON.stringify(filePath)} no longer exists; nothing was restored`);
  }

  let host: Host;
  try {
    host = await startHost({ open: [filePath] });
  } catch (error) {
    if (isDomainError(error)) return refuse(`${error.message} (${error.code}); nothing was restored`);
    throw error;
  }
  try {
    // startHost opened the file; opening it again only finds its tab.
    const { tabId } = await host.workbench.openFile(filePath, { consented: true });
    const { documentId } = host.workbench.resolveTab(tabId);
    const documents = host.container.get(HostDocumentStore);
    const current = documents.get(documentId);
    if (current.content === checkpoint.contentBefore) {
      process.stderr.write(
        `vmark: ${JSON.stringify(filePath)} already holds that text; nothing to restore\n`,
      );
      return report(id, filePath, current.revision);
    }

    let saved: DocumentSnapshot;
    try {
      await documents.replace(documentId, checkpoint.contentBefore, { origin: { kind: 'host' } });
      saved = await documents.save(documentId);
    } catch (error) {
      // The replaced text lived only in this process's buffer, which goes with it: the file is untouched.
      if (isDomainError(error)) return refuse(`${error.message} (${error.code}); nothing was restored`);
      throw error;
    }

    try {
      await store.append({
        // This host's tab ends with the command: no tab is left to name.
        tabId: null,
        filePath,
        tool: 'checkpoints.restore',
        description: `Restored ${id} (${sizeChange(current.content, checkpoint.contentBefore)})`,
        revisionBefore: current.revision,
        revisionAfter: saved.revision,
        contentBefore: current.content,
      });
    } catch (error) {
      report(id, filePath, saved.revision);
      const reason = error instanceof Error ? error.message : String(error);
      return refuse(
        `the file was restored, but the restore could not be recorded (so cannot be undone): ${reason}`,
      );
    }
    return report(id, filePath, saved.revision);
  } finally {
    await host.dispose();
  }
}

async function isFile(filePath: string): Promise<boolean> {
  return (await stat(filePath).catch(() => null))?.isFile() === true;
}

function report(id: string, filePath: string, revision: string): number {
  process.stdout.write(JSON.stringify({ restored: id, filePath, revision }) + '\n');
  return 0;
}

function refuse(message: string): number {
  process.stderr.write(`vmark: ${message}\n`);
  return 1;
}

const HEADERS = ['ID', 'TIME', 'TOOL', 'FILE', 'DESCRIPTION'] as const;

function table(entries: readonly CheckpointEntry[]): string {
  if (entries.length === 0) return 'No checkpoints.\n';
  const rows = entries.map((e) =>
    [e.id, localTime(e.createdAt), e.tool, e.filePath ?? '(untitled)', e.description].map(printable),
  );
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), ...rows.map(line)].join('\n') + '\n';
}

/** `2025-01-31 14:05:09` in the local time zone: when the person was at work, as they remember it. */
function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ` +
    `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`
  );
}

/** One line, without control characters: a path or description must not break the table or drive the terminal. */
function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? ' ' : char;
  }
  return out;
}
