import { describe, expect, it } from 'vitest';
import { parseWorkflow } from './parse-workflow.js';
import { ERROR_CODES, stepId, WARNING_CODES, type WorkflowParse } from './workflow-ir.js';

const lines = (...parts: string[]) => parts.join('\n') + '\n';
const errorCodes = (result: WorkflowParse) => (result.ok ? [] : result.errors.map((e) => e.code));
const warningCodes = (result: WorkflowParse) => result.warnings.map((w) => w.code);

const error = (line: number, code: string, message: string) => ({ line, code, message, severity: 'error' });
const errorsOf = (source: string) => {
  const result = parseWorkflow(source);
  return result.ok ? [] : result.errors;
};

/** The errors of a source that must fail, as [line, code] pairs. */
function failures(source: string): Array<[number, string]> {
  const result = parseWorkflow(source);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors.map((e) => [e.line, e.code]);
}

describe('the examples of vmark-notes §4.3', () => {
  it('parses the authored example, step 4 included (free text is a valid step)', () => {
    const result = parseWorkflow(
      lines(
        '---',
        'site: zhihu',
        'inputs: [article_path]',
        '---',
        '1. goal: open my creator dashboard',
        '2. extract: new comments since last run',
        '3. confirm: show me the drafts',
        '4. action: click 回复 and submit',
      ),
    );
    expect(result).toEqual({
      ok: true,
      warnings: [],
      workflow: {
        site: 'zhihu',
        inputs: ['article_path'],
        steps: [
          { index: 1, kind: 'goal', text: 'open my creator dashboard', line: 5 },
          { index: 2, kind: 'extract', text: 'new comments since last run', line: 6 },
          { index: 3, kind: 'confirm', text: 'show me the drafts', line: 7 },
          { index: 4, kind: 'action', text: 'click 回复 and submit', line: 8 },
        ],
      },
    });
  });

  it('parses the executable example with its trigger', () => {
    const result = parseWorkflow(
      lines(
        '---',
        'site: example',
        'inputs: [query]',
        'trigger: manual',
        '---',
        '1. action: navigate to https://example.com/search',
        '2. action: type {query} into "Search" (textbox)',
        '3. action: click "Go" (button)',
        '4. extract: content',
      ),
    );
    expect(result.ok && result.workflow).toEqual({
      site: 'example',
      inputs: ['query'],
      trigger: 'manual',
      steps: [
        { index: 1, kind: 'action', text: 'navigate to https://example.com/search', line: 6 },
        { index: 2, kind: 'action', text: 'type {query} into "Search" (textbox)', line: 7 },
        { index: 3, kind: 'action', text: 'click "Go" (button)', line: 8 },
        { index: 4, kind: 'extract', text: 'content', line: 9 },
      ],
    });
    expect(result.warnings).toEqual([]);
  });
});

describe('the grammar of §4.1', () => {
  it('takes a BOM, CRLF and lone CR, comments, blanks, "-" and "N." markers and bare steps', () => {
    const source =
      '\uFEFF---\r\n# who\r\nsite: s\r\n\r\n---\r# a comment\n\n- goal: a\n  7.   extract:   b  \nconfirm:c';
    const result = parseWorkflow(source);
    expect(result.ok && result.workflow.steps).toEqual([
      { index: 1, kind: 'goal', text: 'a', line: 8 },
      { index: 2, kind: 'extract', text: 'b', line: 9 },
      { index: 3, kind: 'confirm', text: 'c', line: 10 },
    ]);
  });

  it('keeps U+2028 and U+2029 inside a line', () => {
    const result = parseWorkflow('---\nsite: s\n---\ngoal: a\u2028b\u2029c\n');
    expect(result.ok && result.workflow.steps).toEqual([
      { index: 1, kind: 'goal', text: 'a\u2028b\u2029c', line: 4 },
    ]);
  });

  it('reads the four forms of inputs', () => {
    const inputsOf = (value: string) => {
      const result = parseWorkflow(`---\nsite: s\ninputs:${value}\n---\ngoal: g\n`);
      return result.ok ? result.workflow.inputs : errorCodes(result);
    };
    expect(inputsOf(' [a, b_c, d-e]')).toEqual(['a', 'b_c', 'd-e']);
    expect(inputsOf(' a ,b')).toEqual(['a', 'b']);
    expect(inputsOf(' []')).toEqual([]);
    expect(inputsOf('')).toEqual([]);
    expect(inputsOf(' [ ]')).toEqual([]);
  });

  it('leaves trigger out when it is not set or empty', () => {
    const noTrigger = parseWorkflow('---\nsite: s\ntrigger:\n---\ngoal: g\n');
    expect(noTrigger.ok && 'trigger' in noTrigger.workflow).toBe(false);
  });

  it('numbers steps among steps and gives each its engine id', () => {
    const result = parseWorkflow('---\nsite: s\n---\n# c\n\ngoal: a\n\ngoal: b\n');
    expect(result.ok && result.workflow.steps.map(stepId)).toEqual(['step-1', 'step-2']);
  });
});

describe('every error code', () => {
  it('missing-front-matter, still reading the lines as steps', () => {
    expect(failures('site: x\ngoal: a\n')).toEqual([
      [1, 'missing-front-matter'],
      [1, 'unknown-step-kind'],
    ]);
    expect(failures('')).toEqual([
      [1, 'missing-front-matter'],
      [1, 'no-steps'],
    ]);
  });

  it('unterminated-front-matter', () => {
    expect(failures('---\nsite: x\ngoal: a\n')).toEqual([[1, 'unterminated-front-matter']]);
  });

  it('malformed-front-matter, with the example message', () => {
    expect(errorsOf('---\nsite: x\nnot a pair\n---\ngoal: a\n')).toEqual([
      error(3, 'malformed-front-matter', 'Front-matter line must be "key: value" (got: not a pair)'),
    ]);
  });

  it('missing-site, absent or empty', () => {
    expect(failures('---\ninputs: []\n---\ngoal: a\n')).toEqual([[3, 'missing-site']]);
    expect(failures('---\nsite:   \n---\ngoal: a\n')).toEqual([[2, 'missing-site']]);
  });

  it('duplicate-front-matter-key (case-sensitive: Site is another, unknown key)', () => {
    expect(failures('---\nsite: a\nsite: b\n---\ngoal: a\n')).toEqual([[3, 'duplicate-front-matter-key']]);
    const other = parseWorkflow('---\nsite: a\nSite: b\n---\ngoal: a\n');
    expect(other.ok).toBe(true);
    expect(warningCodes(other)).toEqual(['unknown-front-matter-key']);
  });

  it('malformed-inputs: unbalanced brackets or an empty entry', () => {
    for (const value of ['[a, b', 'a, b]', '[a,, b]', '[a,]'])
      expect(failures(`---\nsite: s\ninputs: ${value}\n---\ngoal: a\n`)).toEqual([[3, 'malformed-inputs']]);
  });

  it('invalid-input-name', () => {
    for (const value of ['[1a]', '[a b]', '[a.b]', '[é]', '[-a]'])
      expect(failures(`---\nsite: s\ninputs: ${value}\n---\ngoal: a\n`)).toEqual([[3, 'invalid-input-name']]);
  });

  it('duplicate-input-name', () => {
    expect(failures('---\nsite: s\ninputs: [a, b, a]\n---\ngoal: a\n')).toEqual([
      [3, 'duplicate-input-name'],
    ]);
  });

  it('malformed-step, with the example message: no kind, no text, or a kind that is not lower case', () => {
    expect(errorsOf('---\nsite: s\n---\njust prose\n1. goal:   \nAPI: call it\n')).toEqual([
      error(4, 'malformed-step', 'Step must be "<kind>: <text>" (got: just prose)'),
      error(5, 'malformed-step', 'Step must be "<kind>: <text>" (got: 1. goal:)'),
      error(6, 'malformed-step', 'Step must be "<kind>: <text>" (got: API: call it)'),
    ]);
  });

  it('unknown-step-kind, with the example message', () => {
    expect(errorsOf('---\nsite: s\n---\nx: do it\n')).toEqual([
      error(4, 'unknown-step-kind', 'Unknown step kind "x" (expected api, action, goal, confirm, extract).'),
    ]);
  });

  it('no-steps, with the example message, for a body of comments and blanks only', () => {
    expect(errorsOf('---\nsite: s\n---\n# nothing\n\n')).toEqual([
      error(6, 'no-steps', 'Workflow has no steps.'),
    ]);
  });

  it('quotes at most 80 characters of an offending line', () => {
    const result = parseWorkflow(`---\nsite: s\n---\n${'z'.repeat(200)}\n`);
    expect(result.ok ? '' : result.errors[0]!.message).toBe(
      `Step must be "<kind>: <text>" (got: ${'z'.repeat(80)}…)`,
    );
  });
});

describe('every warning code, on both outcomes', () => {
  it('unknown-front-matter-key', () => {
    const result = parseWorkflow('---\nsite: s\ncolour: blue\n---\ngoal: a\n');
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        {
          line: 3,
          code: 'unknown-front-matter-key',
          message: 'Unknown front-matter key "colour" (known: site, inputs, trigger).',
          severity: 'warning',
        },
      ],
    });
  });

  it('undeclared-variable, with the example message, once per name and step', () => {
    const result = parseWorkflow('---\nsite: s\ninputs: [a]\n---\ngoal: {a} {b} {b}\ngoal: {b}\n');
    expect(result.warnings).toEqual([
      {
        line: 5,
        code: 'undeclared-variable',
        message: 'Step references undeclared variable "{b}".',
        severity: 'warning',
      },
      {
        line: 6,
        code: 'undeclared-variable',
        message: 'Step references undeclared variable "{b}".',
        severity: 'warning',
      },
    ]);
    expect(result.ok).toBe(true);
  });

  it('reports warnings beside errors when the source fails', () => {
    const result = parseWorkflow('---\nsite: s\nextra: 1\n---\ngoal: {nope}\nbad line\n');
    expect(errorCodes(result)).toEqual(['malformed-step']);
    expect(warningCodes(result)).toEqual(['unknown-front-matter-key', 'undeclared-variable']);
  });

  it('calls no variable undeclared when the inputs list itself is malformed', () => {
    const result = parseWorkflow('---\nsite: s\ninputs: [a\n---\ngoal: {a}\n');
    expect(errorCodes(result)).toEqual(['malformed-inputs']);
    expect(result.warnings).toEqual([]);
  });
});

describe('one pass', () => {
  it('collects every error and warning of a source at once, sorted by line', () => {
    const source = lines(
      '---',
      'inputs: [a, 2b, a',
      'inputs: []',
      'oops',
      'mood: fine',
      '---',
      'goal: {x}',
      'API: up',
      'zap: it',
    );
    const result = parseWorkflow(source);
    expect(errorCodes(result)).toEqual([
      'malformed-inputs',
      'duplicate-front-matter-key',
      'malformed-front-matter',
      'missing-site',
      'malformed-step',
      'unknown-step-kind',
    ]);
    expect(warningCodes(result)).toEqual(['unknown-front-matter-key']);
  });

  it('has a source for every code the notes list', () => {
    const samples = [
      'site: x\ngoal: a\n',
      '---\nsite: x\n',
      '---\nsite: x\nsite: y\nbad\ninputs: [a\n---\n',
      '---\ninputs: [1a, b, b]\nhue: red\n---\nx: y\ngoal: {c}\nprose\n',
      '---\nsite: s\n---\n',
    ];
    const seen = new Set(
      samples.flatMap((source) => {
        const result = parseWorkflow(source);
        return [...errorCodes(result), ...warningCodes(result)];
      }),
    );
    expect([...seen].sort()).toEqual([...ERROR_CODES, ...WARNING_CODES].sort());
  });
});
