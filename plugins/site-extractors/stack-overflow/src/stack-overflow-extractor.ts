/**
 * Stack Overflow: a question page (`/questions/<id>/…`): the question with its score and tags,
 * the accepted answer, and the other answers by score (the top `TOP_ANSWERS`), each with its
 * author. Other pages, and a question page without the question (deleted, a changed layout),
 * go to the generic reader.
 */
import {
  escapeMarkdownText,
  parseHtml,
  readDocument,
  type SiteExtractor,
  textContent,
  toMarkdown,
} from '@vmark/sdk/reader';

/** Answers shown besides the accepted one. */
export const TOP_ANSWERS = 3;

interface Answer {
  readonly element: Element;
  readonly score: number;
  readonly accepted: boolean;
}

export const stackOverflowExtractor: SiteExtractor = {
  id: 'stack-overflow',
  match: (url) => url.hostname === 'stackoverflow.com' && /^\/questions\/\d+(?:\/|$)/.test(url.pathname),
  read(html, url) {
    const document = parseHtml(html);
    const question = document.querySelector('#question, .question');
    const questionBody = question?.querySelector('.js-post-body, .s-prose');
    if (!question || !questionBody) return readDocument(document, url.href);

    const title = textContent(document.querySelector('#question-header h1, h1[itemprop="name"]'));
    const asker = authorOf(question);
    const tags = Array.from(question.querySelectorAll('.post-tag'))
      .map((t) => textContent(t))
      .filter(Boolean);
    const parts = [`# ${escapeMarkdownText(title)}`];
    const facts = [
      `Score ${scoreOf(question)}`,
      ...(asker ? [`asked by ${asker}`] : []),
      ...(tags.length ? [`tags: ${tags.join(', ')}`] : []),
    ];
    parts.push(escapeMarkdownText(facts.join(' · ')), toMarkdown(questionBody.innerHTML, url.href));

    const answers: Answer[] = Array.from(document.querySelectorAll('.answer')).map((element) => ({
      element,
      score: scoreOf(element),
      accepted:
        element.classList.contains('accepted-answer') ||
        element.querySelector('.js-accepted-answer-indicator:not(.d-none)') !== null,
    }));
    const accepted = answers.filter((a) => a.accepted);
    const others = answers
      .filter((a) => !a.accepted)
      .sort((a, b) => b.score - a.score)
      .slice(0, TOP_ANSWERS);
    let textLength = textContent(questionBody).length;
    for (const answer of [...accepted, ...others]) {
      const body = answer.element.querySelector('.js-post-body, .s-prose');
      if (!body) continue;
      textLength += textContent(body).length;
      const who = authorOf(answer.element);
      const label = `${answer.accepted ? 'Accepted answer' : 'Answer'} (score ${answer.score})${who ? ` by ${who}` : ''}`;
      parts.push(`## ${escapeMarkdownText(label)}`, toMarkdown(body.innerHTML, url.href));
    }
    if (answers.length > accepted.length + others.length)
      parts.push(`*${answers.length - accepted.length - others.length} more answers not shown.*`);
    return { title, byline: asker, url: url.href, markdown: parts.join('\n\n'), textLength };
  },
};

function scoreOf(post: Element): number {
  const score = Number(post.getAttribute('data-score') ?? textContent(post.querySelector('.js-vote-count')));
  return Number.isFinite(score) ? score : 0;
}

/** The post's author: the last user card (the first is an editor's when the post was edited). */
function authorOf(post: Element): string | null {
  const cards = Array.from(post.querySelectorAll('.post-signature .user-details a[href*="/users/"]'));
  return textContent(cards.at(-1)) || null;
}
