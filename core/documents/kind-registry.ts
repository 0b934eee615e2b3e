import type { Disposable, DocumentKind, DocumentKinds } from '@vmark/sdk';
import { DomainError } from '@vmark/sdk';
import { injectable } from 'inversify';

/**
 * No enabled plugin claims the document: every plugin that registers a kind is
 * off or failed. The seed's `INTERNAL` envelope for MCP; the editor words it for
 * a person and offers to turn the right plugin back on.
 */
export class NoKindError extends DomainError {
  constructor() {
    super('INTERNAL', 'No enabled plugin handles this document kind');
  }
}

/** The document kinds plugins contribute; the highest-priority kind that claims a document wins. */
@injectable()
export class KindRegistry implements DocumentKinds {
  #kinds: DocumentKind[] = [];

  register(kind: DocumentKind): Disposable {
    if (this.#kinds.some((k) => k.id === kind.id)) {
      throw new Error(`Document kind "${kind.id}" is already registered`);
    }
    this.#kinds = [...this.#kinds, kind].sort((a, b) => b.priority - a.priority);
    return { dispose: () => (this.#kinds = this.#kinds.filter((k) => k !== kind)) };
  }

  list(): string[] {
    return this.#kinds.map((k) => k.id);
  }

  detect(filePath: string | null, content: string | (() => string)): string {
    let text = typeof content === 'string' ? content : undefined;
    const read = () => (text ??= (content as () => string)());
    const kind = this.#kinds.find((k) =>
      k.detect(filePath, k.readsContent?.(filePath) === false ? '' : read()),
    );
    if (!kind) throw new NoKindError();
    return kind.id;
  }
}
