/**
 * Deterministic Markdown of a given size: headings, prose, lists, a table, code
 * fences, links and some non-ASCII text, so that JSON escaping and UTF-8 coding
 * cost what they cost on a real note.
 */

const WORDS = (
  'the editor keeps every document as plain text and saves it atomically so that a crash never leaves ' +
  'a torn file behind while an assistant reads and writes through the protocol with revisions that ' +
  'detect a stale write before it destroys the work of a person typing in the same buffer'
).split(' ');
const ACCENTED = [
  'café',
  'naïve',
  'Zürich',
  'façade',
  'jalapeño',
  'smörgåsbord',
  '日本語',
  'ünïcödé',
  '✓',
  '→',
];

/** A small linear congruential generator: the same seed gives the same document on every machine. */
function generator(seed) {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % limit;
  };
}

function sentence(next) {
  const length = 8 + next(14);
  const words = [];
  for (let i = 0; i < length; i++) {
    const roll = next(40);
    if (roll === 0) words.push(ACCENTED[next(ACCENTED.length)]);
    else if (roll === 1) words.push(`**${WORDS[next(WORDS.length)]}**`);
    else if (roll === 2) words.push(`\`${WORDS[next(WORDS.length)]}()\``);
    else if (roll === 3) words.push(`[${WORDS[next(WORDS.length)]}](https://example.com/${next(1000)})`);
    else if (roll === 4) words.push(`"${WORDS[next(WORDS.length)]}"`);
    else words.push(WORDS[next(WORDS.length)]);
  }
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function section(next, index) {
  const parts = [`## Section ${index}: ${WORDS[next(WORDS.length)]} ${WORDS[next(WORDS.length)]}`, ''];
  for (let p = 0; p < 2 + next(3); p++) {
    const sentences = [];
    for (let s = 0; s < 3 + next(4); s++) sentences.push(sentence(next));
    parts.push(sentences.join(' '), '');
  }
  switch (next(4)) {
    case 0:
      for (let i = 0; i < 3 + next(4); i++) parts.push(`- ${sentence(next)}`);
      parts.push('');
      break;
    case 1:
      parts.push('```ts', `export function step${index}(input: string): string {`);
      parts.push(
        `  return input.replace(/\\s+/g, ' ').trim(); // "${WORDS[next(WORDS.length)]}"`,
        '}',
        '```',
        '',
      );
      break;
    case 2:
      parts.push('| key | value | note |', '| --- | ---: | --- |');
      for (let i = 0; i < 3; i++)
        parts.push(`| k${index}-${i} | ${next(10000)} | ${WORDS[next(WORDS.length)]} |`);
      parts.push('');
      break;
    default:
      parts.push(`> ${sentence(next)}`, '');
  }
  return parts.join('\n');
}

/** The marker line that makes each iteration's text new while keeping its length. */
export function markerLine(iteration) {
  return `<!-- bench iteration ${String(iteration).padStart(8, '0')} -->`;
}

/** A title, then sections made by `make(index)` while the lines joined stay within `targetBytes`. */
function sectionsUpTo(targetBytes, title, make) {
  const sections = [title, ''];
  let bytes = Buffer.byteLength(sections.join('\n'));
  for (let index = 1; ; index++) {
    const block = `${make(index)}\n`;
    const size = Buffer.byteLength(block);
    if (bytes + size > targetBytes) return sections;
    sections.push(block);
    bytes += size + 1;
  }
}

/**
 * A Markdown body of about `targetBytes` UTF-8 bytes (never more), without the marker line.
 */
export function markdownBody(targetBytes, seed = 1) {
  const next = generator(seed);
  const sections = sectionsUpTo(targetBytes, '# Benchmark document', (index) => section(next, index));
  // Tops up with a plain paragraph, so that the size is exact rather than a section short.
  let filler = '';
  const room = targetBytes - Buffer.byteLength(sections.join('\n')) - 2;
  while (filler.length < room) filler += `${WORDS[next(WORDS.length)]} `;
  if (room > 0) sections.push(`${filler.slice(0, room - 1)}.\n`);
  return sections.join('\n');
}

/** The document as written in iteration `iteration`: the marker line, then the body. */
export function documentAt(body, iteration) {
  return `${markerLine(iteration)}\n${body}`;
}

/** One section of the rich note: a table with math in it, inline and block math, tasks, a callout, images. */
function richSection(next, index) {
  const word = () => WORDS[next(WORDS.length)];
  const parts = [`## Section ${index}: ${word()} ${word()}`, ''];
  parts.push(
    `The ${word()} grows as $O(n^{${1 + next(3)}})$ while $\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$ holds; ${sentence(next)}`,
    '',
  );
  parts.push('| key | value | formula | note |', '| :--- | ---: | :---: | --- |');
  for (let i = 0; i < 4 + next(4); i++)
    parts.push(`| k${index}-${i} | ${next(10000)} | $x_{${i}}^2 + \\alpha$ | *${word()}* ${word()} |`);
  parts.push(
    '',
    '$$',
    `\\int_0^{${1 + next(9)}} x^{${index % 7}}\\,dx = \\frac{1}{${1 + (index % 7)}}`,
    '$$',
    '',
  );
  parts.push(`- [${next(2) ? 'x' : ' '}] ${sentence(next)}`, `- [ ] ${sentence(next)}`, '');
  parts.push(
    `> [!${['note', 'tip', 'warning', 'danger'][next(4)]}] ${word()} ${word()}`,
    `> ${sentence(next)}`,
    '',
  );
  parts.push(`![figure ${index}](images/figure-${next(50)}.png) ${sentence(next)}`, '');
  return parts.join('\n');
}

/**
 * A Markdown note of about `targetBytes` UTF-8 bytes (never more) full of what Live mode draws:
 * tables (with math in cells), inline and block math, tasks, callouts and images (ADR 73).
 */
export function richMarkdownBody(targetBytes, seed = 1) {
  const next = generator(seed);
  return sectionsUpTo(targetBytes, '# Rich benchmark document', (index) => richSection(next, index)).join(
    '\n',
  );
}
