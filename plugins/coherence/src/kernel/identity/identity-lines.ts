/**
 * The front-matter identity block (format 0, spec §2.1, §3.2), handled line by line and
 * never through a YAML round trip, so every author byte outside the reserved lines is kept.
 *
 * ```yaml
 * ---
 * title: Elena
 * vmark:
 *   id: 018f3c7a-9f2e-7cc1-b302-5e9d4a6b21c7
 *   schema: character
 * ---
 * ```
 *
 * The recognition rules below copy the original implementation's (Rust `canonical.rs`
 * `mask_identity` / `insert_identity`, `frontmatter.rs` `read_identity`) exactly, because
 * `maskIdentity` feeds the content hash and a workspace must hash the same in both:
 *
 * - Front matter exists only if the first line is exactly `---`. It closes at the first
 *   LATER line, from the third line on, that is exactly `---` (the original searches for
 *   `"\n---\n"` after the opening `"---\n"`, so a `---` on the second line never closes it),
 *   or at a final `---` with no line break. Otherwise it is unclosed and is plain content.
 * - The identity map is a top-level line that is `vmark:` once trailing (Unicode) white
 *   space is removed; its children are the directly following lines that start with a
 *   space or a tab (a blank line ends it). Children whose text starts with `id:` or
 *   `schema:` after leading white space are the reserved lines.
 *
 * The original works on LF text. Here lines may end in LF, CRLF or CR, and each function
 * keeps the document's own line endings; for LF text the output is byte-identical to the
 * original's, and for other text it equals it after canonicalisation (tested as a property).
 */

export interface IdentityReading {
  /** Lower-case UUID, or null when the document carries no readable id. */
  id: string | null;
  /** `vmark.schema`, or null. */
  schema: string | null;
  /** Human-readable findings; the identity read is still the best available. */
  problems: string[];
}

interface Line {
  text: string;
  /** '' only on a last line without a line break. */
  eol: string;
}

type FrontMatter = { kind: 'none' } | { kind: 'unclosed' } | { kind: 'closed'; close: number };

const ID_KEY = 'id:';
const SCHEMA_KEY = 'schema:';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Unicode White_Space, the set Rust's `trim*` removes. JavaScript's `trim` differs (it also
// removes U+FEFF and not U+0085), and the masking decision must match the original's.
const WS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRAILING_WS = new RegExp(`[${WS}]+$`, 'u');
const LEADING_WS = new RegExp(`^[${WS}]+`, 'u');
const rustTrimEnd = (s: string): string => s.replace(TRAILING_WS, '');
const rustTrimStart = (s: string): string => s.replace(LEADING_WS, '');
const rustTrim = (s: string): string => rustTrimStart(rustTrimEnd(s));

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push({ text: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

const joinLines = (lines: readonly Line[]): string => lines.map((l) => l.text + l.eol).join('');

function locateFrontMatter(lines: readonly Line[]): FrontMatter {
  const first = lines[0];
  if (first === undefined || first.text !== '---' || first.eol === '') return { kind: 'none' };
  for (let k = 2; k < lines.length; k++) {
    if (lines[k]?.text === '---') return { kind: 'closed', close: k };
  }
  return { kind: 'unclosed' };
}

const isMapLine = (line: Line): boolean => rustTrimEnd(line.text) === 'vmark:';
const isChild = (line: Line | undefined): line is Line =>
  line !== undefined && (line.text.startsWith(' ') || line.text.startsWith('\t'));
const isReserved = (line: Line): boolean => {
  const t = rustTrimStart(line.text);
  return t.startsWith(ID_KEY) || t.startsWith(SCHEMA_KEY);
};

/** Index one past the last child of the map whose `vmark:` line is at `at` (bounded by `end`). */
function mapEnd(lines: readonly Line[], at: number, end: number): number {
  let j = at + 1;
  while (j < end && isChild(lines[j])) j++;
  return j;
}

/**
 * Plain scalar or single/double-quoted scalar with an optional trailing `# comment`. No
 * escape processing: ids and schema names have no use for it, and a value we cannot read
 * plainly is reported rather than guessed.
 */
function scalar(raw: string): { value: string; problem?: string } {
  const v = rustTrim(raw);
  const q = v[0];
  if (q === '"' || q === "'") {
    const close = v.indexOf(q, 1);
    if (close < 0) return { value: '', problem: `unterminated quote in ${JSON.stringify(v)}` };
    const after = rustTrim(v.slice(close + 1));
    if (after !== '' && !after.startsWith('#')) {
      return { value: '', problem: `unexpected text after quoted value ${JSON.stringify(v)}` };
    }
    return { value: v.slice(1, close) };
  }
  // YAML starts a comment only at a `#` preceded by white space (or at the start).
  const hash = v.search(/(^|[ \t])#/);
  return { value: hash < 0 ? v : rustTrimEnd(v.slice(0, hash)) };
}

/**
 * Read `vmark.id` / `vmark.schema`. More tolerant than the original (which only reads LF
 * text, bare values and the first map): accepts CRLF/CR, quoted values and comments, and
 * reports what it skipped. Where both read an id they read the same one: the first
 * `vmark:` map decides and, inside it, the last `id:` line (as in the original).
 */
export function readIdentity(text: string): IdentityReading {
  const problems: string[] = [];
  const none = (): IdentityReading => ({ id: null, schema: null, problems });
  const lines = splitLines(text);
  if (lines[0]?.text === '\uFEFF---') {
    problems.push('front matter follows a byte order mark and is not recognised (as in the original)');
    return none();
  }
  const fm = locateFrontMatter(lines);
  if (fm.kind === 'none') return none();
  if (fm.kind === 'unclosed') {
    problems.push('front matter is not closed (no later `---` line); it is content, not identity');
    return none();
  }

  let reading: IdentityReading | null = null;
  for (let i = 1; i < fm.close; i++) {
    const line = lines[i];
    if (line === undefined) break;
    if (!isMapLine(line)) {
      if (/^vmark[ \t]*:/.test(line.text)) {
        problems.push(`line ${i + 1}: \`vmark:\` must stand alone on its line to hold the identity; ignored`);
      }
      continue;
    }
    const end = mapEnd(lines, i, fm.close);
    if (reading !== null) {
      problems.push(`line ${i + 1}: duplicate \`vmark:\` map; the first one is used`);
    } else {
      reading = readMap(lines, i, end, problems);
    }
    i = end - 1;
  }
  return reading ?? none();
}

function readMap(lines: readonly Line[], at: number, end: number, problems: string[]): IdentityReading {
  let id: string | null = null;
  let schema: string | null = null;
  let ids = 0;
  let schemas = 0;
  for (let j = at + 1; j < end; j++) {
    const t = rustTrimStart(lines[j]?.text ?? '');
    if (t.startsWith(ID_KEY)) {
      ids++;
      const { value, problem } = scalar(t.slice(ID_KEY.length));
      if (problem !== undefined) problems.push(`line ${j + 1}: vmark.id: ${problem}`);
      if (UUID_RE.test(value)) id = value.toLowerCase();
      else {
        id = null; // the original also lets a later, unreadable `id:` line clear the id
        if (problem === undefined)
          problems.push(`line ${j + 1}: vmark.id is not a UUID: ${JSON.stringify(value)}`);
      }
    } else if (t.startsWith(SCHEMA_KEY)) {
      schemas++;
      const { value, problem } = scalar(t.slice(SCHEMA_KEY.length));
      if (problem !== undefined) problems.push(`line ${j + 1}: vmark.schema: ${problem}`);
      else if (value !== '') schema = value;
    }
  }
  if (ids > 1) problems.push(`vmark.id appears ${ids} times; the last one is used`);
  if (schemas > 1) problems.push(`vmark.schema appears ${schemas} times; the last non-empty one is used`);
  return { id, schema, problems };
}

/**
 * Add the identity to a document that has none (spec §2.1, first capture):
 * - no (or unclosed, or BOM-preceded) front matter: prepend a new block, as the original;
 * - front matter without a `vmark:` map: append the map just before the closing `---`,
 *   as the original;
 * - a `vmark:` map without `id:` (e.g. only `schema:`): insert `id:` (and `schema:` if
 *   given and absent) as its first children, with the map's own indentation. The original
 *   would append a second map here, which its own reader then never sees; inserting keeps
 *   one map and masks to the same bytes.
 * New lines use the line ending found at the insertion point (LF if the text has none).
 * Throws if the document already has an id, or an `id:` line we cannot read (a human must
 * look at that), or if `id` / `schema` could not be written as plain one-line values.
 */
export function assignIdentity(text: string, id: string, schema?: string): string {
  if (!UUID_RE.test(id)) throw new RangeError(`not a UUID: ${JSON.stringify(id)}`);
  if (schema !== undefined && !isPlainSchema(schema)) {
    throw new RangeError(`schema must be a plain one-line YAML scalar: ${JSON.stringify(schema)}`);
  }
  const uid = id.toLowerCase();
  const lines = splitLines(text);
  const anyEol = lines.find((l) => l.eol !== '')?.eol ?? '\n';
  const fm = locateFrontMatter(lines);

  if (fm.kind !== 'closed') {
    const block = [
      '---',
      'vmark:',
      `  id: ${uid}`,
      ...(schema !== undefined ? [`  schema: ${schema}`] : []),
      '---',
    ];
    return block.map((l) => l + anyEol).join('') + text;
  }

  for (let i = 1; i < fm.close; i++) {
    const line = lines[i];
    if (line === undefined || !isMapLine(line)) continue;
    const end = mapEnd(lines, i, fm.close);
    const children = lines.slice(i + 1, end);
    if (children.some((c) => rustTrimStart(c.text).startsWith(ID_KEY))) {
      throw new RangeError('document already has a `vmark.id` line; refusing to assign another');
    }
    const content = children.find((c) => !rustTrimStart(c.text).startsWith('#')) ?? children[0];
    const indent = content === undefined ? '  ' : (/^[ \t]+/.exec(content.text)?.[0] ?? '  ');
    const hasSchema = children.some((c) => rustTrimStart(c.text).startsWith(SCHEMA_KEY));
    const eol = line.eol;
    const added: Line[] = [{ text: `${indent}id: ${uid}`, eol }];
    if (schema !== undefined && !hasSchema) added.push({ text: `${indent}schema: ${schema}`, eol });
    return joinLines([...lines.slice(0, i + 1), ...added, ...lines.slice(i + 1)]);
  }

  const eol = lines[fm.close - 1]?.eol ?? anyEol;
  const added: Line[] = [
    { text: 'vmark:', eol },
    { text: `  id: ${uid}`, eol },
    ...(schema !== undefined ? [{ text: `  schema: ${schema}`, eol }] : []),
  ];
  return joinLines([...lines.slice(0, fm.close), ...added, ...lines.slice(fm.close)]);
}

function isPlainSchema(s: string): boolean {
  return (
    s !== '' &&
    rustTrim(s) === s &&
    !/[\r\n]/.test(s) &&
    !/[ \t]#/.test(s) &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) &&
    !/:([ \t]|$)/.test(s)
  );
}

/**
 * The lines between the fences of a closed front matter, as the identity rules recognise it;
 * null when the document has none (no front matter, or an unclosed one, which is content).
 */
export function frontMatterBody(text: string): string | null {
  const lines = splitLines(text);
  const fm = locateFrontMatter(lines);
  return fm.kind === 'closed' ? joinLines(lines.slice(1, fm.close)) : null;
}

/**
 * The document's first lines up to and including its front matter's closing line (with its
 * line break), or '' when it has no closed front matter. Every reading of the identity
 * depends on these lines alone, so `readIdentity(canonicalizeString(frontMatterHead(t)))`
 * reads what the whole text would: an editor's keystroke in a 10 MB note then costs a look
 * at its head, not a normalisation and a split of the whole text. Canonicalisation never
 * makes or unmakes a `---` line nor joins lines (NFC composes nothing with a line break).
 */
export function frontMatterHead(text: string): string {
  if (!text.startsWith('---')) return '';
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let index = 0; ; index++) {
    const m = re.exec(text);
    const end = m === null ? text.length : m.index;
    const line = text.slice(start, end);
    if (index === 0 && (line !== '---' || m === null)) return '';
    if (index >= 2 && line === '---') return m === null ? text : text.slice(0, end + m[0].length);
    if (m === null) return '';
    start = end + m[0].length;
  }
}

/**
 * Delete the reserved identity lines (spec §3.2): every `id:` / `schema:` child of every
 * top-level `vmark:` map, the map line if no child survives, and the whole front matter if
 * only white space survives. Exactly the original's one-pass `mask_identity`, including
 * its edge cases, because content hashes depend on it:
 * - a closing `---` with no line break gets one when the block is kept (the original
 *   rebuilds the block as `---\n…\n---\n`);
 * - a white-space-only front matter is dropped even when it had no identity;
 * - one pass only: if dropping an emptied block uncovers a second block at the top that
 *   itself holds identity lines, that second block is left alone, so masking is idempotent
 *   except on such stacked blocks.
 * Unclosed front matter is content and returned unchanged.
 */
export function maskIdentity(text: string): string {
  const lines = splitLines(text);
  const fm = locateFrontMatter(lines);
  if (fm.kind !== 'closed') return text;

  const kept: Line[] = [];
  for (let i = 1; i < fm.close; i++) {
    const line = lines[i];
    if (line === undefined) break;
    if (!isMapLine(line)) {
      kept.push(line);
      continue;
    }
    const end = mapEnd(lines, i, fm.close);
    const survivors = lines.slice(i + 1, end).filter((c) => !isReserved(c));
    if (survivors.length > 0) kept.push(line, ...survivors);
    i = end - 1;
  }

  const rest = lines.slice(fm.close + 1);
  if (kept.every((l) => rustTrim(l.text) === '')) return joinLines(rest);
  const open = lines[0] as Line;
  const close = lines[fm.close] as Line;
  return joinLines([
    open,
    ...kept,
    { text: close.text, eol: close.eol === '' ? open.eol : close.eol },
    ...rest,
  ]);
}
