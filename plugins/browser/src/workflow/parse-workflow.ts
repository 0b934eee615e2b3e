import {
  INPUT_NAME,
  STEP_KINDS,
  type StepKind,
  type Workflow,
  type WorkflowError,
  type WorkflowParse,
  type WorkflowStep,
  type WorkflowWarning,
} from './workflow-ir.js';

/*
 * The workflow file grammar of vmark-notes §4.1, in one pass that collects every diagnostic
 * (errors sorted by line; warnings reported whether or not the source parses).
 */

/** CRLF, CR and LF end a line; U+2028 and U+2029 are ordinary characters. */
const LINE_BREAK = /\r\n|\r|\n/;
const FRONT_MATTER_LINE = /^([a-zA-Z_][\w-]*)\s*:\s*([\s\S]*)$/;
const STEP_LINE = /^\s*(?:(?:\d+\.|-)\s*)?([a-z]+)\s*:\s*([\s\S]*)$/;
const VARIABLE_REF = /\{([a-zA-Z_][\w-]*)\}/g;
const KNOWN_KEYS = ['site', 'inputs', 'trigger'] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];

/** How much of an offending line a message quotes. */
const QUOTED_MAX = 80;

function quoted(line: string): string {
  const chars = [...line.trim()];
  return chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX).join('')}…` : chars.join('');
}

const isKnownKey = (key: string): key is KnownKey => (KNOWN_KEYS as readonly string[]).includes(key);
const isStepKind = (kind: string): kind is StepKind => (STEP_KINDS as readonly string[]).includes(kind);
const isSkipped = (trimmed: string) => trimmed === '' || trimmed.startsWith('#');

class Diagnostics {
  readonly errors: WorkflowError[] = [];
  readonly warnings: WorkflowWarning[] = [];
  error(line: number, code: WorkflowError['code'], message: string): void {
    this.errors.push({ line, code, message, severity: 'error' });
  }
  warn(line: number, code: WorkflowWarning['code'], message: string): void {
    this.warnings.push({ line, code, message, severity: 'warning' });
  }
}

interface FrontMatterValue {
  readonly value: string;
  readonly line: number;
}

/** The front matter's known keys, first occurrence of each; diagnostics for the rest. */
function readFrontMatter(
  lines: readonly string[],
  end: number,
  diagnostics: Diagnostics,
): Map<KnownKey, FrontMatterValue> {
  const values = new Map<KnownKey, FrontMatterValue>();
  const seen = new Set<string>();
  for (let i = 1; i < end; i++) {
    const line = i + 1;
    const trimmed = lines[i]!.trim();
    if (isSkipped(trimmed)) continue;
    const match = FRONT_MATTER_LINE.exec(trimmed);
    if (!match) {
      diagnostics.error(
        line,
        'malformed-front-matter',
        `Front-matter line must be "key: value" (got: ${quoted(trimmed)})`,
      );
      continue;
    }
    const key = match[1]!;
    if (seen.has(key)) {
      diagnostics.error(line, 'duplicate-front-matter-key', `Front-matter key "${key}" is set twice.`);
      continue;
    }
    seen.add(key);
    if (isKnownKey(key)) values.set(key, { value: match[2]!.trim(), line });
    else
      diagnostics.warn(
        line,
        'unknown-front-matter-key',
        `Unknown front-matter key "${key}" (known: ${KNOWN_KEYS.join(', ')}).`,
      );
  }
  return values;
}

/**
 * `[a, b]`, `a, b`, `[]` or nothing. Returns the valid names, or null when the list itself is
 * malformed (then no variable can be called undeclared).
 */
function readInputs(entry: FrontMatterValue | undefined, diagnostics: Diagnostics): string[] | null {
  if (!entry) return [];
  const { value, line } = entry;
  const opens = value.startsWith('[');
  const closes = value.endsWith(']');
  if (opens !== closes) {
    diagnostics.error(
      line,
      'malformed-inputs',
      `inputs must be a list like "[a, b]" (got: ${quoted(value)})`,
    );
    return null;
  }
  const list = (opens ? value.slice(1, -1) : value).trim();
  if (list === '') return [];
  const names = list.split(',').map((name) => name.trim());
  if (names.includes('')) {
    diagnostics.error(line, 'malformed-inputs', `inputs has an empty entry (got: ${quoted(value)})`);
    return null;
  }
  const valid: string[] = [];
  for (const name of names) {
    if (!INPUT_NAME.test(name)) {
      diagnostics.error(
        line,
        'invalid-input-name',
        `Input name "${name}" must start with a letter or "_" and hold only letters, digits, "_" and "-".`,
      );
    } else if (valid.includes(name)) {
      diagnostics.error(line, 'duplicate-input-name', `Input "${name}" is declared twice.`);
    } else valid.push(name);
  }
  return valid;
}

function readSteps(
  lines: readonly string[],
  start: number,
  declared: readonly string[] | null,
  diagnostics: Diagnostics,
): { steps: WorkflowStep[]; stepLines: number } {
  const steps: WorkflowStep[] = [];
  let stepLines = 0;
  for (let i = start; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!;
    if (isSkipped(raw.trim())) continue;
    stepLines++;
    const match = STEP_LINE.exec(raw);
    const text = match?.[2]!.trim() ?? '';
    if (!match || text === '') {
      diagnostics.error(line, 'malformed-step', `Step must be "<kind>: <text>" (got: ${quoted(raw)})`);
      continue;
    }
    const kind = match[1]!;
    if (!isStepKind(kind)) {
      diagnostics.error(
        line,
        'unknown-step-kind',
        `Unknown step kind "${kind}" (expected ${STEP_KINDS.join(', ')}).`,
      );
      continue;
    }
    if (declared) {
      const undeclared = new Set<string>();
      for (const [, name] of text.matchAll(VARIABLE_REF))
        if (!declared.includes(name!)) undeclared.add(name!);
      for (const name of undeclared)
        diagnostics.warn(line, 'undeclared-variable', `Step references undeclared variable "{${name}}".`);
    }
    steps.push({ index: steps.length + 1, kind, text, line });
  }
  return { steps, stepLines };
}

/** Parses a workflow source (§4.1): the IR when nothing is wrong, else every error at once. */
export function parseWorkflow(source: string): WorkflowParse {
  const diagnostics = new Diagnostics();
  const lines = source.replace(/^\uFEFF/, '').split(LINE_BREAK);
  let site: string | undefined;
  let inputs: string[] | null = [];
  let trigger: string | undefined;
  let bodyStart: number;
  let unterminated = false;

  if (lines[0]!.trim() !== '---') {
    diagnostics.error(1, 'missing-front-matter', 'Workflow must start with a "---" front-matter line.');
    // Without front matter every line is read as a step, so step problems are still reported.
    bodyStart = 0;
  } else {
    const close = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
    if (close < 0) {
      diagnostics.error(
        1,
        'unterminated-front-matter',
        'Front matter opened on line 1 is never closed by "---".',
      );
      bodyStart = lines.length;
      unterminated = true;
    } else {
      const values = readFrontMatter(lines, close, diagnostics);
      inputs = readInputs(values.get('inputs'), diagnostics);
      const siteEntry = values.get('site');
      site = siteEntry?.value;
      if (!site)
        diagnostics.error(
          siteEntry?.line ?? close + 1,
          'missing-site',
          'Front matter must set a non-empty "site".',
        );
      trigger = values.get('trigger')?.value || undefined;
      bodyStart = close + 1;
    }
  }

  const { steps, stepLines } = readSteps(lines, bodyStart, inputs, diagnostics);
  // A body whose every step line is wrong has those errors already; "no steps" is for an empty
  // body. An unclosed front matter swallowed the body: its error says so.
  if (stepLines === 0 && !unterminated) diagnostics.error(lines.length, 'no-steps', 'Workflow has no steps.');

  const errors = diagnostics.errors.sort((a, b) => a.line - b.line);
  const warnings = diagnostics.warnings.sort((a, b) => a.line - b.line);
  if (errors.length > 0 || site === undefined || inputs === null) return { ok: false, errors, warnings };
  const workflow: Workflow = { site, inputs, ...(trigger !== undefined ? { trigger } : {}), steps };
  return { ok: true, workflow, warnings };
}
