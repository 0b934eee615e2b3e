import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '@vmark/core';
import type { DomainError, LogLevel, PluginContext, PluginDefinition, ToolDefinition } from '@vmark/sdk';
import { definePlugin, DocumentStoreToken, HOST_API_VERSION, isDomainError } from '@vmark/sdk';

/**
 * The test kit: a real host with only the plugins under test, served to a real
 * MCP client over an in-memory transport. No process, no discovery, no network.
 */

export interface PluginUnderTest {
  /** The parsed manifest.json. */
  readonly manifest: unknown;
  readonly plugin: PluginDefinition;
}

export interface TestHostOptions {
  readonly plugins: readonly PluginUnderTest[];
  /** A folder opened as the workspace, as `vmark mcp --workspace` would. */
  readonly workspace?: string;
  /** Files opened as tabs, as `vmark mcp --open` would. */
  readonly open?: readonly string[];
  /** Connect as this installed client: the kit mints its credential and presents it. */
  readonly principal?: string;
}

/** A tool result, with its JSON payload decoded where it has one. */
export interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown> | undefined;
  /** `structuredContent`, else the text parsed as JSON, else undefined. */
  readonly data: unknown;
}

/** A person at the editor, as the editor page would act for them (no page needed). */
export interface TestEditor {
  /** Replaces the tab's whole text, as a person's typing reaches the host (unsaved). */
  type(tabId: string, content: string): Promise<void>;
  /** Ctrl-S. @throws DomainError as the save's refusal (`STALE` on a conflict). */
  save(tabId: string): Promise<void>;
  /**
   * Runs a plugin's editor command as the palette or a key would, in window `main` with `tabId`
   * shown; resolves to the note its handler returned. @throws what the handler throws.
   */
  runCommand(id: string, tabId: string | null): Promise<string | undefined>;
}

export interface TestHost {
  readonly host: Host;
  readonly client: Client;
  readonly editor: TestEditor;
  /** The temporary VMARK_HOME, removed by `dispose`. */
  readonly home: string;
  call(tool: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /**
   * Another MCP client on the same host, a connection of its own (closed by `dispose`). With
   * `elicit`, it declares elicitation and answers each form as a person at that client would.
   */
  connect(name?: string, options?: ConnectOptions): Promise<Client>;
  dispose(): Promise<void>;
}

export interface ConnectOptions {
  /** The person at the client: answers the host's elicitation (an approval's form). */
  readonly elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

export async function startTestHost(options: TestHostOptions): Promise<TestHost> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'vmark-test-home-'));
  const host = await createHost({
    home,
    userPlugins: false,
    extraPlugins: options.plugins.map(({ manifest, plugin }) => ({
      source: 'inline' as const,
      dir: null,
      raw: manifest,
      load: () => Promise.resolve(plugin),
    })),
  });
  if (options.workspace !== undefined) await host.workbench.openWorkspace(options.workspace);
  for (const file of options.open ?? []) await host.workbench.openFile(file);

  const credential =
    options.principal === undefined ? undefined : await host.credentials.mint(options.principal);
  const connections: { client: Client; session: ReturnType<Host['createMcpSession']> }[] = [];
  const connect = async (name = 'vmark-test-kit', connectOptions: ConnectOptions = {}): Promise<Client> => {
    const session = host.createMcpSession(credential);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const { elicit } = connectOptions;
    const client = new Client(
      { name, version: '1.0.0' },
      elicit === undefined ? undefined : { capabilities: { elicitation: {} } },
    );
    if (elicit !== undefined)
      client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
    await session.server.connect(serverSide);
    await client.connect(clientSide);
    connections.push({ client, session });
    return client;
  };
  const client = await connect();

  const documents = host.container.get(DocumentStoreToken);
  const documentOf = (tabId: string) => host.workbench.resolveTab(tabId).documentId;
  return {
    host,
    client,
    home,
    editor: {
      type: async (tabId, content) => {
        await documents.replace(documentOf(tabId), content, { origin: { kind: 'editor' } });
      },
      save: async (tabId) => {
        await documents.save(documentOf(tabId));
      },
      runCommand: (id, tabId) => host.plugins.editorCommands.run(id, { windowLabel: 'main', tabId }),
    },
    call: async (tool, args) =>
      outcomeOf((await client.callTool({ name: tool, arguments: args })) as CallToolResult),
    connect,
    async dispose() {
      for (const { client, session } of connections.splice(0)) {
        await client.close();
        session.dispose();
      }
      await host.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * A plugin made up for a test: a manifest declaring `tools`, and an `activate`
 * that registers them, then runs `more` (e.g. to tap a hook).
 */
export function toolPlugin(
  id: string,
  tools: readonly ToolDefinition[],
  more?: (context: PluginContext) => void,
): PluginUnderTest {
  const manifest = {
    id,
    name: id,
    version: '1.0.0',
    engines: { host: `^${HOST_API_VERSION}` },
    main: 'index.js',
    contributes: {
      tools: tools.map((t) => ({
        name: t.name,
        title: t.title,
        annotations: t.annotations,
        actions: t.actionNames,
      })),
    },
  };
  const plugin = definePlugin({
    activate(context) {
      for (const tool of tools) context.registerTool(tool);
      more?.(context);
    },
  });
  return { manifest, plugin };
}

/** Awaits a call that must be refused with a DomainError, and returns that error. */
export async function domainErrorOf(pending: Promise<unknown>): Promise<DomainError> {
  const outcome: unknown = await pending.then(
    () => new Error('expected a refusal (DomainError), but the call succeeded'),
    (error: unknown) => error,
  );
  if (!isDomainError(outcome)) throw outcome instanceof Error ? outcome : new Error(String(outcome));
  return outcome;
}

/** Reads a plugin's manifest.json, e.g. `readManifest(new URL('../manifest.json', import.meta.url))`. */
export function readManifest(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8'));
}

export function outcomeOf(result: CallToolResult): ToolOutcome {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const structured = result.structuredContent;
  let data: unknown = structured;
  if (data === undefined) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  return { isError: result.isError === true, text, structured, data };
}

/** One `notifications/message` as a client received it. */
export interface LogMessage {
  readonly level: LogLevel;
  readonly logger?: string;
  readonly data: unknown;
}

/**
 * Follows the `notifications/message` a client is sent (it replaces any handler set before):
 * `messages` so far, and `told`, which resolves once a message matching `match` has come.
 */
export function listenToLog(client: Client): {
  readonly messages: readonly LogMessage[];
  told(match: (message: LogMessage) => boolean): Promise<LogMessage>;
} {
  const messages: LogMessage[] = [];
  const waiting: { match: (message: LogMessage) => boolean; resolve: (message: LogMessage) => void }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    const message: LogMessage = { level: params.level, logger: params.logger, data: params.data };
    messages.push(message);
    for (const w of waiting.filter((w) => w.match(message))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(message);
    }
  });
  return {
    messages,
    told: (match) =>
      new Promise((resolve) => {
        const earlier = messages.find(match);
        if (earlier) resolve(earlier);
        else waiting.push({ match, resolve });
      }),
  };
}
