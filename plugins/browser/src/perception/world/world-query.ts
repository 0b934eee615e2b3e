/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/*
 * World code (see world-dom.ts): runs in the page's isolated world, self-contained.
 */
import type { WorldDom } from './world-dom.js';
import type { WorldRefs } from './world-refs.js';

export interface QueryFields {
  readonly attributes?: boolean;
  readonly box?: boolean;
  readonly styles?: readonly string[];
}

export interface QueriedElement {
  readonly ref: string;
  readonly tag: string;
  readonly text: string;
  readonly attributes?: Record<string, string>;
  readonly box?: { x: number; y: number; width: number; height: number };
  readonly styles?: Record<string, string>;
}

export type QueryAnswer =
  | {
      readonly count: number;
      readonly elements: QueriedElement[];
      readonly truncated: boolean;
      readonly next: number;
    }
  | { readonly invalidSelector: string; readonly next: number };

/** `browser_read query`: CSS over the document, in the world, so the page's own globals play no part. */
export interface WorldQuery {
  query(generation: number, next: number, selector: string, fields: QueryFields): QueryAnswer;
}

export function installQuery(dom: WorldDom, refs: WorldRefs): WorldQuery {
  const MAX_ELEMENTS = 50;
  const TEXT_CHARS = 500;
  /** Attributes per element at most, and characters per value: a page's attributes are unbounded. */
  const MAX_ATTRIBUTES = 50;

  const cut = (value: string) => (value.length > TEXT_CHARS ? value.slice(0, TEXT_CHARS) : value);

  return {
    query(generation, next, selector, fields) {
      let found: NodeListOf<Element>;
      try {
        found = document.querySelectorAll(selector);
      } catch (error) {
        return { invalidSelector: error instanceof Error ? error.message : String(error), next };
      }
      const chosen: Element[] = [];
      for (let i = 0; i < found.length && i < MAX_ELEMENTS; i++) chosen.push(found[i]!);
      const assigned = refs.refsFor(generation, chosen, next);
      let truncated = found.length > MAX_ELEMENTS;
      const elements = chosen.map((element, i) => {
        const text = dom.textOf(element, TEXT_CHARS);
        if (text.cut) truncated = true;
        const out: {
          ref: string;
          tag: string;
          text: string;
          attributes?: Record<string, string>;
          box?: { x: number; y: number; width: number; height: number };
          styles?: Record<string, string>;
        } = { ref: assigned.refs[i]!, tag: element.localName, text: text.text };
        if (fields.attributes) {
          const attributes: Record<string, string> = {};
          const list = element.attributes;
          for (let a = 0; a < list.length && a < MAX_ATTRIBUTES; a++) {
            const value = list[a]!.value;
            if (value.length > TEXT_CHARS) truncated = true;
            attributes[list[a]!.name] = cut(value);
          }
          if (list.length > MAX_ATTRIBUTES) truncated = true;
          out.attributes = attributes;
        }
        if (fields.box) {
          const box = element.getBoundingClientRect();
          const round = (n: number) => Math.round(n * 10) / 10;
          out.box = { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) };
        }
        if (fields.styles && fields.styles.length > 0) {
          const computed = getComputedStyle(element);
          const styles: Record<string, string> = {};
          for (const name of fields.styles) styles[name] = cut(computed.getPropertyValue(name));
          out.styles = styles;
        }
        return out;
      });
      return { count: found.length, elements, truncated, next: assigned.next };
    },
  };
}
