/**
 * Follows the host's document hooks and turns writes into captures (vmark-notes §7.3):
 *
 * - an MCP client's `document.read` of a Markdown file joins that connection's read set;
 * - its next write records a `model`/`inferred` transformation whose direct inputs are that
 *   read set, each pinned to the text actually served, and empties the read set;
 * - an editor save records a `human`/`exact` transformation (no inputs) in a workspace that
 *   already captures.
 *
 * A capture happens once the written text is on disk (`documentSaved`), so the ledger never
 * records a revision the file does not hold. A workspace starts capturing — `.vmark/` is
 * created, identities assigned — at the first MCP write made from something read.
 */
import type {
  DocumentReadEvent,
  DocumentSavedEvent,
  DocumentStore,
  DocumentWrittenEvent,
  ToolCaller,
  WriteProposal,
} from '@vmark/sdk';
import { assignIdentity, canonicalizeString, readIdentity, uuidv7 } from '../kernel/identity/index.js';
import type { WorkspaceRegistry } from '../workspace/workspace-registry.js';
import type { CaptureRequest, CapturedDocument } from './plan-capture.js';

const CAPTURED_KIND = 'markdown';
/** Read sets kept at once, one per connection; the oldest goes first. */
const MAX_READ_SETS = 64;

interface ServedRead {
  readonly documentId: string;
  readonly filePath: string;
  readonly text: string;
}

interface PendingWrite {
  readonly filePath: string;
  readonly before: string | null;
  readonly after: string;
  readonly inputs: readonly ServedRead[];
  readonly agent: CaptureRequest['agent'];
  readonly intent: CaptureRequest['intent'];
  readonly confidence: CaptureRequest['confidence'];
}

const hasIdentity = (text: string): boolean => readIdentity(canonicalizeString(text)).id !== null;

export class CaptureController {
  /** By MCP connection: what it read since its last write, by document. */
  readonly #reads = new Map<string, Map<string, ServedRead>>();
  /** By document: a write waiting for its save. */
  readonly #pending = new Map<string, PendingWrite>();
  /** Captures in flight, so a test (or shutdown) can wait for them. */
  #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly workspaces: WorkspaceRegistry,
    private readonly report: (message: string) => void,
  ) {}

  onRead(event: DocumentReadEvent): void {
    const { document, origin } = event;
    if (origin.kind !== 'mcp' || document.filePath === null || document.kind !== CAPTURED_KIND) return;
    let reads = this.#reads.get(origin.caller.connectionId);
    if (!reads) {
      this.#reads.set(origin.caller.connectionId, (reads = new Map<string, ServedRead>()));
      // Connections that read and never write (or went away) must not pin texts forever.
      if (this.#reads.size > MAX_READ_SETS) this.#reads.delete(this.#reads.keys().next().value!);
    }
    reads.set(document.id, { documentId: document.id, filePath: document.filePath, text: document.content });
  }

  /** Gives the written document its identity when this write will be captured. */
  async beforeWrite(proposal: WriteProposal): Promise<WriteProposal> {
    const { document, origin } = proposal;
    if (origin.kind !== 'mcp' || document.filePath === null || document.kind !== CAPTURED_KIND)
      return proposal;
    if (hasIdentity(proposal.content)) return proposal;
    const where = await this.workspaces.containing(document.filePath);
    if (where === null) return proposal;
    const derived = [...this.#readsOf(origin.caller)].some((r) => r.documentId !== document.id);
    if (!derived && !(await where.workspace.initialized())) return proposal;
    return { ...proposal, content: assignIdentity(proposal.content, uuidv7()) };
  }

  onWritten(event: DocumentWrittenEvent): void {
    const { before, after, origin } = event;
    if (after.filePath === null || after.kind !== CAPTURED_KIND) return;
    if (origin.kind === 'mcp') {
      const inputs = [...this.#readsOf(origin.caller)].filter((r) => r.documentId !== after.id);
      // "Since its last write": whatever the outcome, the next write starts a new read set.
      this.#reads.delete(origin.caller.connectionId);
      this.#pending.set(after.id, {
        filePath: after.filePath,
        before: before.filePath === null ? null : before.content,
        after: after.content,
        inputs,
        agent: { type: 'model', id: origin.caller.clientName },
        intent: {
          kind: 'mcp-write',
          summary: `${origin.tool}.${origin.action} by ${origin.caller.clientName}`,
        },
        confidence: 'inferred',
      });
    } else if (origin.kind === 'editor') {
      this.#pending.set(after.id, {
        filePath: after.filePath,
        before: before.content,
        after: after.content,
        inputs: [],
        agent: { type: 'human' },
        intent: { kind: 'edit', summary: 'saved in the editor' },
        confidence: 'exact',
      });
    }
  }

  onSaved(event: DocumentSavedEvent): void {
    const { document } = event;
    const pending = this.#pending.get(document.id);
    if (pending === undefined || document.filePath === null) return;
    this.#pending.delete(document.id);
    // Another change came in between: the saved text is not the one this write made.
    if (document.content !== pending.after) return;
    const run = this.#capture(document.filePath, pending).catch((error: unknown) =>
      this.report(
        `capture of ${document.filePath} failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  /** Resolves when every capture started so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.#inFlight]);
  }

  #readsOf(caller: ToolCaller): Iterable<ServedRead> {
    return this.#reads.get(caller.connectionId)?.values() ?? [];
  }

  async #capture(filePath: string, pending: PendingWrite): Promise<void> {
    const where = await this.workspaces.containing(filePath);
    if (where === null || !hasIdentity(pending.after)) return;
    const { workspace } = where;
    if (pending.agent.type === 'human' && !(await workspace.initialized())) return;
    const inputs: CapturedDocument[] = [];
    for (const read of pending.inputs) {
      const inside = await this.workspaces.containing(read.filePath);
      // Objects live in one workspace: a read from another one cannot be an input here.
      if (inside?.workspace !== workspace) continue;
      const text = hasIdentity(read.text) ? read.text : await this.#giveIdentity(read);
      if (text !== null) inputs.push({ path: inside.path, text });
    }
    await workspace.capture({
      output: { path: where.path, text: pending.after },
      before: pending.before,
      inputs,
      agent: pending.agent,
      intent: pending.intent,
      confidence: pending.confidence,
    });
  }

  /**
   * Assigns an identity to a document that was read without one, as its first capture does
   * (vmark-notes §7.2), and saves it. Only a clean buffer still holding the served text is
   * touched: anything else would save a person's unsaved work or pin the wrong text.
   */
  async #giveIdentity(read: ServedRead): Promise<string | null> {
    let document;
    try {
      document = this.documents.get(read.documentId);
    } catch {
      return null;
    }
    if (document.dirty || document.content !== read.text) return null;
    const text = assignIdentity(document.content, uuidv7());
    const saved = await this.documents
      .write(document.id, text, { expectedRevision: document.revision, origin: { kind: 'host' }, save: true })
      .catch(() => null);
    return saved?.saved ? text : null;
  }
}
