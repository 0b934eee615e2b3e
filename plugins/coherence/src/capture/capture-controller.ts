/**
 * Follows the host's document hooks and turns writes into captures (vmark-notes §7.3, ADR 25):
 *
 * - an MCP client's `document.read` of a tracked Markdown file joins that connection's read
 *   set, by path, with the text served — also when the document is closed or edited later;
 * - its next write records a `model`/`inferred` transformation whose direct inputs are that
 *   read set, each pinned to the text served, and empties the read set. An input without an
 *   identity is given one on disk first (host-managed: no new revision, no dirty tab);
 * - a deterministic edit (`document.transform`, `workflow.apply_patch`) is no derivation: it
 *   keeps the read set, never assigns an identity, and on a tracked document records its new
 *   revision as `model`/`exact` with no inputs;
 * - an editor save records a `human`/`exact` transformation in a workspace that already captures.
 *
 * Identities are the host's: a save whose text lacks the document's `vmark.id` keeps it (the
 * line is put back, touching no other byte); an explicit different id is respected. A capture
 * happens once the written text is on disk (`documentSaved`), so the ledger never records a
 * revision the file does not hold. A workspace starts capturing — `.vmark/` is created,
 * identities assigned — at the first MCP write made from something read.
 */
import type {
  ChangeOrigin,
  DocumentOpenedEvent,
  DocumentReadEvent,
  DocumentSavedEvent,
  DocumentSnapshot,
  DocumentStore,
  DocumentWrittenEvent,
  HostLog,
  SaveProposal,
  ToolCaller,
} from '@vmark/sdk';
import { SerialQueue } from '@vmark/sdk';
import { assignIdentity, uuidv7 } from '../kernel/identity/index.js';
import { isWalkedMarkdownPath } from '../kernel/scan/index.js';
import type { WorkspaceRegistry } from '../workspace/workspace-registry.js';
import type { CaptureRequest, CapturedDocument } from './plan-capture.js';
import {
  type Identity,
  identityOf,
  identityOfDocument,
  identityProblem,
  isMarkdownFile,
  isTrackedDocument,
} from './tracked-document.js';

/** Read sets kept at once, one per connection; the oldest goes first. */
const MAX_READ_SETS = 64;
/** Documents one read set holds at most; the oldest read goes first. */
const MAX_READS = 256;

interface ServedRead {
  readonly filePath: string;
  readonly text: string;
}

interface PendingWrite {
  readonly filePath: string;
  readonly before: string | null;
  readonly after: string;
  readonly inputs: readonly ServedRead[];
  /** An AI's write (or edit): one the host may give a first identity to when it saves it. */
  readonly byClient: boolean;
  readonly agent: CaptureRequest['agent'];
  readonly intent: CaptureRequest['intent'];
  readonly confidence: CaptureRequest['confidence'];
  /** The MCP connection whose write this is, told when it cannot be captured; null for the editor's. */
  readonly connectionId: string | null;
}

const isDeterministic = (origin: Extract<ChangeOrigin, { kind: 'mcp' }>): boolean =>
  origin.derivedFromReads === false;

export class CaptureController {
  /** By MCP connection: what it read since its last write, by file. */
  readonly #reads = new Map<string, Map<string, ServedRead>>();
  /** By document: a write waiting for its save. */
  readonly #pending = new Map<string, PendingWrite>();
  /** By document: the identity it last carried, kept when a later text drops it. */
  readonly #identities = new Map<string, Identity>();
  /**
   * The captures are prepared one after another in the order their writes were saved (a
   * capture waits for its inputs' identities to reach the disk, and a later write's capture
   * must not overtake it), then handed to their workspace, which records them in that order —
   * together, when they pile up.
   */
  readonly #prepared = new SerialQueue();
  /** Captures handed to a workspace and not yet recorded. */
  readonly #recording = new Set<Promise<unknown>>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly workspaces: WorkspaceRegistry,
    private readonly log: HostLog,
  ) {}

  onOpened({ document }: DocumentOpenedEvent): void {
    this.#remember(document);
  }

  onRead({ document, origin }: DocumentReadEvent): void {
    this.#remember(document);
    if (origin.kind !== 'mcp' || !isMarkdownFile(document)) return;
    let reads = this.#reads.get(origin.caller.connectionId);
    if (!reads) {
      this.#reads.set(origin.caller.connectionId, (reads = new Map<string, ServedRead>()));
      // Connections that read and never write (or went away) must not pin texts forever.
      if (this.#reads.size > MAX_READ_SETS) this.#reads.delete(this.#reads.keys().next().value!);
    }
    const filePath = document.filePath!;
    reads.delete(filePath);
    reads.set(filePath, { filePath, text: document.content });
    if (reads.size > MAX_READS) reads.delete(reads.keys().next().value!);
  }

  /**
   * What a save adds: the document's identity when the saved text lacks it, or a first one
   * when this save will be captured as a derivation (or the workspace already captures).
   */
  async beforeSave(proposal: SaveProposal): Promise<SaveProposal> {
    const { document, content, origin } = proposal;
    if (!isMarkdownFile(document) || identityOf(content) !== null) return proposal;
    const where = await this.workspaces.containing(document.filePath!);
    if (where === null || !isTrackedDocument(document, where.path)) return proposal;
    const known = this.#identities.get(document.id) ?? identityOf(document.content);
    let identity = known;
    if (identity === null) {
      if (!(await this.#firstIdentityDue(document, origin, () => where.workspace.initialized())))
        return proposal;
      identity = { id: uuidv7(), schema: null };
    }
    const problem = identityProblem(content);
    const writer = origin?.kind === 'mcp' ? origin.caller.connectionId : null;
    if (problem !== null) {
      this.#report(
        `${where.path} was saved as written, without a vmark.id: ${problem}; it is not captured`,
        writer,
      );
      return proposal;
    }
    try {
      return { ...proposal, content: assignIdentity(content, identity.id, identity.schema ?? undefined) };
    } catch (error) {
      this.#report(`${where.path} was saved as written, without a vmark.id: ${messageOf(error)}`, writer);
      return proposal;
    }
  }

  onWritten({ before, after, origin }: DocumentWrittenEvent): void {
    this.#remember(after);
    if (!isMarkdownFile(after)) return;
    const filePath = after.filePath!;
    if (origin.kind === 'mcp') {
      const client = { type: 'model' as const, id: origin.caller.clientName };
      const summary = `${origin.tool}.${origin.action} by ${origin.caller.clientName}`;
      if (isDeterministic(origin)) {
        // Made from the document alone: what was read before it stays for the next real write.
        this.#pending.set(after.id, {
          filePath,
          before: before.filePath === null ? null : before.content,
          after: after.content,
          inputs: [],
          byClient: false,
          agent: client,
          intent: { kind: 'mcp-edit', summary },
          confidence: 'exact',
          connectionId: origin.caller.connectionId,
        });
        return;
      }
      const inputs = [...this.#readsOf(origin.caller)].filter((r) => r.filePath !== filePath);
      // "Since its last write": whatever the outcome, the next write starts a new read set.
      this.#reads.delete(origin.caller.connectionId);
      this.#pending.set(after.id, {
        filePath,
        before: before.filePath === null ? null : before.content,
        after: after.content,
        inputs,
        byClient: true,
        agent: client,
        intent: { kind: 'mcp-write', summary },
        confidence: 'inferred',
        connectionId: origin.caller.connectionId,
      });
    } else if (origin.kind === 'editor') {
      this.#pending.set(after.id, {
        filePath,
        // Read when the save is captured, not on every keystroke (a large note is held as a rope).
        get before() {
          return before.content;
        },
        get after() {
          return after.content;
        },
        inputs: [],
        byClient: false,
        agent: { type: 'human' },
        intent: { kind: 'edit', summary: 'saved in the editor' },
        confidence: 'exact',
        connectionId: null,
      });
    }
  }

  onSaved({ document, hold }: DocumentSavedEvent): void {
    this.#remember(document);
    const pending = this.#pending.get(document.id);
    if (pending === undefined || document.filePath === null) return;
    this.#pending.delete(document.id);
    // The identity a save put back is the host's; any other difference is another change.
    const saved = { ...pending, after: document.content };
    if (!sameButIdentity(document.content, pending.after)) return;
    const file = document.filePath;
    const failed = (error: unknown) =>
      this.#report(`capture of ${file} failed: ${messageOf(error)}`, pending.connectionId);
    const prepared = this.#prepared.run(() =>
      this.#capture(file, saved).then((handed) => {
        if (handed === null) return;
        const tracked = handed.recording.catch(failed);
        this.#recording.add(tracked);
        void tracked.finally(() => this.#recording.delete(tracked));
      }, failed),
    );
    // An input read without an identity is given one on disk while the capture is prepared. The
    // write answers once that is done: a program that edits the input after "saved" then finds
    // (and keeps) the identity, instead of racing the host and writing over it, which would make
    // the input no object and its edge vanish instead of going stale (ADR 66).
    if (pending.inputs.some((read) => identityOf(read.text) === null)) hold(prepared);
  }

  /** Resolves when every capture started so far has been recorded (or has failed). */
  async settled(): Promise<void> {
    await this.#prepared.idle();
    await Promise.all([...this.#recording]);
  }

  #remember(document: DocumentSnapshot): void {
    const identity = identityOfDocument(document);
    if (identity !== null) this.#identities.set(document.id, identity);
  }

  #readsOf(caller: ToolCaller): Iterable<ServedRead> {
    return this.#reads.get(caller.connectionId)?.values() ?? [];
  }

  /** A client's write made from something else it read, or one in a workspace that already captures. */
  async #firstIdentityDue(
    document: DocumentSnapshot,
    origin: ChangeOrigin | null,
    initialized: () => Promise<boolean>,
  ): Promise<boolean> {
    if (origin === null) {
      const pending = this.#pending.get(document.id);
      if (pending === undefined || !pending.byClient) return false;
      return pending.inputs.length > 0 || (await initialized());
    }
    if (origin.kind !== 'mcp' || isDeterministic(origin)) return false;
    const derived = [...this.#readsOf(origin.caller)].some((r) => r.filePath !== document.filePath);
    return derived || (await initialized());
  }

  /** Prepares the capture and hands it to its workspace: its recording, or null when there is none. */
  async #capture(filePath: string, pending: PendingWrite): Promise<{ recording: Promise<number> } | null> {
    const where = await this.workspaces.containing(filePath);
    if (where === null || !isWalkedMarkdownPath(where.path) || identityOf(pending.after) === null)
      return null;
    const { workspace } = where;
    if (!pending.byClient && !(await workspace.initialized())) return null;
    const inputs: CapturedDocument[] = [];
    for (const read of pending.inputs) {
      const inside = await this.workspaces.containing(read.filePath);
      // Objects live in one workspace: a read from another one cannot be an input here.
      if (inside?.workspace !== workspace || !isWalkedMarkdownPath(inside.path)) continue;
      const input = await this.#inputFor(read, inside.path, pending.connectionId);
      if (input !== null) inputs.push(input);
    }
    const recording = workspace.capture({
      output: { path: where.path, text: pending.after },
      before: pending.before,
      inputs,
      agent: pending.agent,
      intent: pending.intent,
      confidence: pending.confidence,
    });
    // Wrapped: an async function's result would wait for the recording, and the next capture with it.
    return { recording };
  }

  /**
   * A read as an input, pinned to the text served. A file read without an identity is given
   * one on disk (and in its buffer, if a tab shows it), whether or not it changed since: the
   * revision served is then older than the file, and the edge is born stale.
   */
  async #inputFor(
    read: ServedRead,
    relative: string,
    writer: string | null,
  ): Promise<CapturedDocument | null> {
    if (identityOf(read.text) !== null) return { path: relative, text: read.text };
    const problem = identityProblem(read.text);
    if (problem !== null) {
      this.#report(`${relative} was read but is not recorded as an input: ${problem}`, writer);
      return null;
    }
    const id = uuidv7();
    let text: string;
    try {
      text = await this.documents.annotate(read.filePath, (current) =>
        identityOf(current) !== null || identityProblem(current) !== null
          ? null
          : assignIdentity(current, id),
      );
    } catch (error) {
      this.#report(`${relative} was read but is not recorded as an input: ${messageOf(error)}`, writer);
      return null;
    }
    const identity = identityOf(text);
    if (identity === null) {
      this.#report(
        `${relative} was read but is not recorded as an input: it could not be given a vmark.id`,
        writer,
      );
      return null;
    }
    return { path: relative, text: read.text, identity: { object: identity.id, schema: identity.schema } };
  }

  /** What a client's write could not be captured for goes to that client alone; the editor's, to all. */
  #report(message: string, writer: string | null): void {
    this.log.log('warning', message, writer === null ? undefined : { connectionId: writer });
  }
}

/** Equal once identity lines are set aside: the save only added the host's. */
function sameButIdentity(saved: string, written: string): boolean {
  if (saved === written) return true;
  const identity = identityOf(saved);
  if (identity === null || identityOf(written) !== null) return false;
  try {
    return assignIdentity(written, identity.id, identity.schema ?? undefined) === saved;
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
