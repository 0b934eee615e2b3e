/**
 * The links of a note that point at files of the vault (issue 19: follow a link, backlinks, a
 * rename that updates the links to a file): wikilinks and embeds, Markdown links and images, and
 * reference definitions, read with the project's one Markdown parser (so nothing inside code,
 * front matter stays text too). Links with a scheme (`https:`, `mailto:`) or to `//host` are not
 * the vault's and are left out; `#heading` alone links into the same note.
 */
import { frontMatterLength, GFM, parser, Wikilink, wikilinkParts } from '@vmark/sdk/markdown';

const markdown = parser.configure([GFM, Wikilink]);

type SyntaxNode = ReturnType<typeof markdown.parse>['topNode'];

export type LinkForm = 'wikilink' | 'embed' | 'markdown' | 'image' | 'definition';

export interface NoteLink {
  readonly form: LinkForm;
  /** The whole link in the note's text. */
  readonly from: number;
  readonly to: number;
  /** The part that names the file, as written: what a rename rewrites. Empty for a same-note link. */
  readonly targetFrom: number;
  readonly targetTo: number;
  /** The file named: a wikilink's name as written, a Markdown link's path percent-decoded. */
  readonly target: string;
  /** The heading (or `^block`) linked to, or null. */
  readonly heading: string | null;
  /** A wikilink's alias, or a Markdown link's text; null when it has none. */
  readonly label: string | null;
  /** A Markdown link written `<like this.md>`. */
  readonly angled: boolean;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//;

export function noteLinks(text: string): NoteLink[] {
  const links: NoteLink[] = [];
  const skip = frontMatterLength(text);
  markdown.parse(text).iterate({
    enter(node) {
      if (node.to <= skip) return node.name === 'Document';
      switch (node.name) {
        case 'Wikilink':
        case 'WikilinkEmbed':
          links.push(wikilink(text, node.node));
          return false;
        case 'Link':
        case 'Image':
        case 'LinkReference': {
          const link = markdownLink(text, node.node);
          if (link !== null) links.push(link);
          return false;
        }
        default:
          return true;
      }
    },
  });
  return links;
}

function wikilink(text: string, node: SyntaxNode): NoteLink {
  const inner = node.getChild('WikilinkTarget')!;
  const raw = text.slice(inner.from, inner.to);
  const parts = wikilinkParts(raw);
  const lead = raw.length - raw.trimStart().length;
  const targetFrom = inner.from + lead;
  return {
    form: node.name === 'WikilinkEmbed' ? 'embed' : 'wikilink',
    from: node.from,
    to: node.to,
    targetFrom,
    targetTo: targetFrom + parts.target.length,
    target: parts.target,
    heading: parts.heading,
    label: parts.alias,
    angled: false,
  };
}

function markdownLink(text: string, node: SyntaxNode): NoteLink | null {
  const url = node.getChild('URL');
  if (url === null) return null;
  const written = text.slice(url.from, url.to);
  const angled = written.startsWith('<') && written.endsWith('>');
  const start = angled ? url.from + 1 : url.from;
  const end = angled ? url.to - 1 : url.to;
  const address = text.slice(start, end);
  if (SCHEME.test(address)) return null;
  const hash = address.indexOf('#');
  const path = hash === -1 ? address : address.slice(0, hash);
  const marks = node.getChildren('LinkMark');
  const label =
    node.name === 'LinkReference' || marks.length < 2 ? null : text.slice(marks[0]!.to, marks[1]!.from);
  return {
    form: node.name === 'Image' ? 'image' : node.name === 'LinkReference' ? 'definition' : 'markdown',
    from: node.from,
    to: node.to,
    targetFrom: start,
    targetTo: start + path.length,
    target: decode(path),
    heading: hash === -1 ? null : decode(address.slice(hash + 1)),
    label,
    angled,
  };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
