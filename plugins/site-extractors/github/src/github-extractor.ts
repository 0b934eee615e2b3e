/**
 * GitHub: issues and pull requests with their conversation (every comment, its author and
 * date), a repository's README, and a file (rendered Markdown, else its source as a fenced
 * block in its language). Other GitHub pages, and pages of these kinds that lack the parts
 * read here (a sign-in wall, a changed layout), go to the generic reader.
 */
import {
  escapeMarkdownText,
  parseHtml,
  readDocument,
  type ReaderResult,
  type SiteExtractor,
  textContent,
  toMarkdown,
} from '@vmark/sdk/reader';

type Kind = 'conversation' | 'repository' | 'file';

const RESERVED_OWNERS = new Set([
  'settings',
  'notifications',
  'marketplace',
  'explore',
  'topics',
  'login',
  'orgs',
]);

export function kindOf(url: URL): Kind | null {
  if (url.hostname !== 'github.com') return null;
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts.length < 2 || RESERVED_OWNERS.has(parts[0]!)) return null;
  if (parts.length === 2) return 'repository';
  if (parts.length === 4 && (parts[2] === 'issues' || parts[2] === 'pull') && /^\d+$/.test(parts[3]!))
    return 'conversation';
  if (parts.length >= 5 && parts[2] === 'blob') return 'file';
  return null;
}

/** A file extension → the fence's language, where they differ. */
const LANGUAGES: Readonly<Record<string, string>> = {
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  yml: 'yaml',
  sh: 'bash',
  md: 'markdown',
};

export const githubExtractor: SiteExtractor = {
  id: 'github',
  match: (url) => kindOf(url) !== null,
  read(html, url) {
    const document = parseHtml(html);
    const kind = kindOf(url);
    const read =
      kind === 'conversation'
        ? conversation(document, url)
        : kind === 'repository'
          ? readme(document, url)
          : file(document, url);
    return read ?? readDocument(document, url.href);
  },
};

function conversation(document: Document, url: URL): ReaderResult | null {
  const title = textContent(
    first(document, ['.js-issue-title', '[data-testid="issue-title"]', '.gh-header-title']),
  );
  const comments = Array.from(document.querySelectorAll('.timeline-comment, [data-testid="comment"]'));
  if (title === '' || comments.length === 0) return null;
  const number = url.pathname.split('/')[4]!;
  const state = textContent(first(document, ['.State', '[data-testid="header-state"]']));
  const parts = [`# ${escapeMarkdownText(title)} (#${number})`];
  if (state) parts.push(`State: ${escapeMarkdownText(state)}`);
  let text = 0;
  let author: string | null = null;
  for (const comment of comments) {
    const who = textContent(comment.querySelector('.author, [data-testid="author"]')) || 'someone';
    author ??= who;
    const when = comment.querySelector('relative-time, time')?.getAttribute('datetime') ?? '';
    const body = comment.querySelector('.comment-body, .markdown-body, [data-testid="comment-body"]');
    const markdown = body ? toMarkdown(body.innerHTML, url.href) : '';
    text += textContent(body).length;
    parts.push(
      `## ${escapeMarkdownText(who)}${when ? ` commented ${escapeMarkdownText(when)}` : ''}`,
      markdown || '*(no text)*',
    );
  }
  return { title, byline: author, url: url.href, markdown: parts.join('\n\n'), textLength: text };
}

function readme(document: Document, url: URL): ReaderResult | null {
  const body = document.querySelector('#readme article.markdown-body, article.markdown-body');
  if (body === null) return null;
  const [owner, repo] = url.pathname.split('/').filter(Boolean);
  const about = textContent(
    document.querySelector('.BorderGrid-cell p.f4, [data-testid="about-description"]'),
  );
  const title = `${owner}/${repo}`;
  const head = [`# ${escapeMarkdownText(title)}`, ...(about ? [escapeMarkdownText(about)] : [])];
  return {
    title,
    byline: owner ?? null,
    url: url.href,
    markdown: `${head.join('\n\n')}\n\n${toMarkdown(body.innerHTML, url.href)}`,
    textLength: textContent(body).length,
  };
}

function file(document: Document, url: URL): ReaderResult | null {
  const path = url.pathname.split('/').slice(5).join('/');
  const name = path.split('/').at(-1) ?? path;
  const rendered = document.querySelector('article.markdown-body');
  if (rendered !== null) {
    return {
      title: name,
      byline: null,
      url: url.href,
      markdown: `# ${escapeMarkdownText(path)}\n\n${toMarkdown(rendered.innerHTML, url.href)}`,
      textLength: textContent(rendered).length,
    };
  }
  const source = sourceOf(document);
  if (source === null) return null;
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const language = LANGUAGES[extension] ?? extension;
  const fence = '`'.repeat(Math.max(3, longestRun(source, '`') + 1));
  return {
    title: name,
    byline: null,
    url: url.href,
    markdown: `# ${escapeMarkdownText(path)}\n\n${fence}${language}\n${source}\n${fence}`,
    textLength: source.replace(/\s+/g, ' ').trim().length,
  };
}

/** The file's text: the code view's raw text area, else the lines of the highlighted table. */
function sourceOf(document: Document): string | null {
  const raw = document.querySelector('textarea#read-only-cursor-text-area');
  if (raw !== null) {
    // The parser leaves a textarea's character references as they are: decode them.
    const decoder = document.createElement('div');
    decoder.innerHTML = raw.textContent ?? '';
    return (decoder.textContent ?? '').replace(/\n$/, '');
  }
  const lines = Array.from(document.querySelectorAll('td.blob-code'));
  if (lines.length === 0) return null;
  return lines.map((line) => line.textContent ?? '').join('\n');
}

/** The first element found for the first selector that finds one: selectors in order of preference. */
function first(document: Document, selectors: readonly string[]): Element | null {
  for (const selector of selectors) {
    const found = document.querySelector(selector);
    if (found !== null) return found;
  }
  return null;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  for (const run of text.match(new RegExp(`\\${char}+`, 'g')) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
