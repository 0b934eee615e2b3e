import { chmod, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandLineError, runCommandLine } from '@vmark/sdk';
import { findServeHost, type ServeHost } from '../mcp/serve-host-finder.js';
import { chromiumArguments, findWindowProgram, type WindowProgram } from './app-window.js';
import { APP_COMMAND_LINE } from './command-lines.js';
import { vmarkHome } from './environment.js';
import { parsePort } from './port-option.js';
import { type EditorHost, reportKeptEdits, startEditorHost } from './editor-host.js';
import { terminalIo } from './terminal-io.js';
import { runWindow, type WindowExit } from './window-process.js';

/**
 * `vmark app`: the editor in an app window. A `vmark serve` already running on
 * this `VMARK_HOME` (and, with `--workspace`, started on that folder) is reused;
 * otherwise this process starts the host and keeps it as long as the window.
 * Electron when installed (its shell starts its own host), else Chromium with
 * `--app` and a profile of its own under `VMARK_HOME`.
 */
export function appCommand(argv: string[]): Promise<number> {
  return runCommandLine(APP_COMMAND_LINE, argv, terminalIo(), ({ values }) => openApp(values));
}

async function openApp(values: { workspace?: string; port?: string }): Promise<number> {
  const port = parsePort(values.port);
  const home = vmarkHome();
  const running = await reusableHost(home, values.workspace);
  // The Electron shell cannot be handed a running host's page yet: it always starts its own host.
  let program: WindowProgram;
  try {
    program = await findWindowProgram({ electron: running === null });
  } catch (error) {
    // Nothing to show the window in: say what is missing, without a stack.
    process.stderr.write(`vmark: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (program.kind === 'electron') {
    if (values.port !== undefined)
      throw new CommandLineError(
        'option --port does not apply when vmark app opens Electron (its shell picks a port)',
      );
    const workspace = values.workspace === undefined ? [] : ['--workspace', path.resolve(values.workspace)];
    return reported(
      program.command,
      await runWindow(program.command, [program.main, ...workspace], 'inherit'),
    );
  }
  let started: EditorHost | undefined;
  let opener: string | undefined;
  try {
    let url: string;
    if (running) url = running.uiUrl;
    else {
      started = await startEditorHost({ workspace: values.workspace, port });
      url = started.url;
    }
    opener = await writeOpener(home, url);
    const asRoot = process.getuid?.() === 0;
    process.stderr.write(
      `vmark: the editor ${running ? `of the running host (pid ${running.pid}) ` : ''}opens in ${program.command}` +
        `${started ? '; closing its window stops this host' : ''}` +
        `${asRoot ? ' (as root, so without Chromium’s sandbox: --no-sandbox)' : ''}\n`,
    );
    const args = chromiumArguments({
      openerUrl: pathToFileURL(opener).href,
      profileDir: path.join(home, 'app-chromium'),
      asRoot,
    });
    return reported(program.command, await runWindow(program.command, args, 'tail'));
  } finally {
    if (opener !== undefined) await rm(opener, { force: true });
    const stopped = await started?.stop();
    // vmark app's notes all go to stderr.
    const notes = (text: string) => void process.stderr.write(text);
    if (stopped) reportKeptEdits(stopped, { out: notes, err: notes });
  }
}

/** A running editor host to reuse: not with VMARK_NO_ATTACH, and only one started on `workspace`. */
async function reusableHost(home: string, workspace: string | undefined): Promise<ServeHost | null> {
  if (process.env.VMARK_NO_ATTACH === '1') return null;
  const host = await findServeHost(home);
  if (host === null || workspace === undefined) return host;
  const folder = await realpath(path.resolve(workspace)).catch(() => null);
  return folder !== null && host.workspaceRoots.includes(folder) ? host : null;
}

/**
 * The page's URL holds the token, and a command line is visible to every user
 * of the machine: the window is given a private (0600) local page that
 * forwards to it instead.
 */
async function writeOpener(home: string, url: string): Promise<string> {
  const folder = path.join(home, 'app');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const file = path.join(folder, `open-${process.pid}.html`);
  await rm(file, { force: true });
  const target = escapeAttribute(url);
  await writeFile(
    file,
    '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
      `<meta http-equiv="refresh" content="0;url=${target}"><title>vmark</title>\n`,
    // wx: created here, never through a link someone planted.
    { mode: 0o600, flag: 'wx' },
  );
  return file;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The window program's exit code as vmark app's, with why it failed when it did. */
function reported(command: string, exit: WindowExit): number {
  if (exit.code === 0) return 0;
  const how = exit.signal === null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
  const why =
    exit.stderrTail === null
      ? ' (its messages are above)'
      : exit.stderrTail === ''
        ? ' and wrote nothing on stderr'
        : `; the end of its stderr:\n${indent(exit.stderrTail)}`;
  process.stderr.write(`vmark: ${command} ${how}${why}\n`);
  return 1;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
