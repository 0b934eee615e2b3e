import path from 'node:path';
import type { CommandIo } from '@vmark/sdk';
import { ApprovalBroker } from '../../approvals/approval-broker.js';
import { newBearerToken } from '../../control/bearer-token.js';
import { startControlServer } from '../../control/control-server.js';
import type { UiRecoveredEdit } from '../../protocol/recovery-protocol.js';
import { RECOVERY_FOLDER } from '../server/recovery-copies.js';
import type { KeptEdits } from '../server/recovery-service.js';

export type { KeptEdits };
import { startUiServer } from '../server/ui-server.js';
import { HostVault } from '../../vault/host-vault.js';
import { RENDERER_DIR, vmarkHome } from '../../composition/environment.js';
import { startHost } from '../../composition/start-host.js';

export interface EditorHostOptions {
  readonly workspace?: string | undefined;
  readonly open?: readonly string[] | undefined;
  /** 0 picks a free port. */
  readonly port: number;
}

export interface EditorHost {
  /** The page, token included. */
  readonly url: string;
  /** MCP at `/mcp` of the same port, behind the same token. */
  readonly mcpUrl: string;
  readonly token: string;
  /** Unsaved edits an earlier editor host kept, waiting in the editor to be restored or discarded. */
  recoveredEdits(): Promise<readonly UiRecoveredEdit[]>;
  /**
   * Stops the servers, keeps a copy of every buffer with unsaved changes under VMARK_HOME (ADR 34),
   * then stops the host. Never writes the documents themselves.
   */
  stop(): Promise<KeptEdits>;
}

/**
 * The host with its editor UI (and MCP at `/mcp`) on 127.0.0.1, announced in
 * its host file so that `vmark mcp` and `vmark app` of the same `VMARK_HOME`
 * attach to it instead of starting hosts of their own.
 */
export async function startEditorHost(options: EditorHostOptions): Promise<EditorHost> {
  const host = await startHost({
    workspace: options.workspace,
    open: options.open,
    watchPluginState: true,
    editor: true,
  });
  const token = newBearerToken();
  let ui: Awaited<ReturnType<typeof startUiServer>> | undefined;
  let control: Awaited<ReturnType<typeof startControlServer>> | undefined;
  const stop = async (): Promise<KeptEdits> => {
    // The host file first (inside control.close): nothing may attach to a host that is going away.
    await control?.close();
    // Then the pages and MCP clients: no change may reach a buffer once its copy is taken.
    await ui?.close();
    const kept = (await ui?.keepUnsavedEdits()) ?? { kept: [], failed: [] };
    await host.dispose();
    return kept;
  };
  try {
    ui = await startUiServer(host, { port: options.port, token, assetsDir: RENDERER_DIR });
    control = await startControlServer(
      { approvals: host.container.get(ApprovalBroker) },
      {
        home: vmarkHome(),
        version: host.version,
        serve: {
          uiUrl: ui.url,
          mcpUrl: ui.mcpUrl,
          token,
          workspaceRoots: host.container.get(HostVault).roots(),
        },
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const server = ui;
  return { url: ui.url, mcpUrl: ui.mcpUrl, token, recoveredEdits: () => server.recoveredEdits(), stop };
}

/** The line `vmark serve` prints after its first two when kept edits wait; nothing when none do. */
export function describeWaitingEdits(edits: readonly UiRecoveredEdit[]): string {
  if (edits.length === 0) return '';
  const names = edits.map((e) => e.filePath ?? e.title).join(', ');
  return (
    `vmark: unsaved edits kept when vmark last stopped are waiting to be restored or discarded ` +
    `in the editor: ${names}\n`
  );
}

/**
 * Says what an editor host that stopped kept: nothing, or where the edits are and what comes next
 * (on `io.out`), and whose edits could not be kept, with why (on `io.err`).
 * @returns whether every unsaved edit was kept.
 */
export function reportKeptEdits({ kept, failed }: KeptEdits, io: Pick<CommandIo, 'out' | 'err'>): boolean {
  if (kept.length > 0) {
    const names = kept.map((c) => c.filePath ?? `an untitled ${c.kind} document`).join(', ');
    const folder = path.join(vmarkHome(), RECOVERY_FOLDER);
    io.out(
      `vmark: kept the unsaved edits of ${kept.length === 1 ? '1 document' : `${kept.length} documents`} ` +
        `in ${folder} (the files themselves are as last saved): ${names}. ` +
        'The next vmark serve offers them back in the editor.\n',
    );
  }
  for (const { filePath, reason } of failed)
    io.err(
      `vmark: the unsaved edits of ${filePath ?? 'an untitled document'} could not be kept: ${reason}\n`,
    );
  return failed.length === 0;
}
