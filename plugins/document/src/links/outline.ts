/**
 * A note's outline: its headings in order, each with its level and where it starts, for the
 * Outline panel (click to jump) and for `[[note#heading]]` (issue 19). Read with the project's
 * one Markdown parser: a `#` line inside code or front matter is no heading.
 */
import { frontMatterLength, GFM, parser } from '@vmark/sdk/markdown';
import { lineOf, lineStarts } from './lines.js';

const markdown = parser.configure(GFM);

export interface Heading {
  readonly level: number;
  /** The heading's text, its marks (`#`, the setext underline) and surrounding spaces left out. */
  readonly text: string;
  /** Where the heading starts (a heading inside a quote or a list item counts too). */
  readonly from: number;
}

const LEVEL = /^(?:ATXHeading|SetextHeading)([1-6])$/;

export function outline(text: string): Heading[] {
  const headings: Heading[] = [];
  const skip = frontMatterLength(text);
  markdown.parse(text).iterate({
    enter(node) {
      const level = LEVEL.exec(node.name);
      if (level === null) return true;
      if (node.from >= skip) {
        let inner = '';
        let at = node.from;
        for (let mark = node.node.firstChild; mark !== null; mark = mark.nextSibling) {
          if (mark.name !== 'HeaderMark') continue;
          inner += text.slice(at, mark.from);
          at = mark.to;
        }
        inner += text.slice(at, node.to);
        headings.push({ level: Number(level[1]), text: inner.trim(), from: node.from });
      }
      return false;
    },
  });
  return headings;
}

/**
 * The line (from 1) of the heading a `[[note#heading]]` names, or null: compared as Obsidian
 * does, its marks and surrounding spaces left out, case and runs of spaces ignored.
 */
export function headingLine(text: string, heading: string): number | null {
  const wanted = comparable(heading);
  const found = outline(text).find((h) => comparable(h.text) === wanted);
  if (found === undefined) return null;
  return lineOf(lineStarts(text), found.from);
}

function comparable(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
