import type { Disposable, DocumentKind, DocumentKinds } from '@vmark/sdk';
import { injectable } from 'inversify';

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

  detect(filePath: string | null, content: string): string {
    const kind = this.#kinds.find((k) => k.detect(filePath, content));
    if (!kind) throw new Error('No enabled plugin handles this document kind');
    return kind.id;
  }
}
