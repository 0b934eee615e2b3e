import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseActionText } from './action-text.js';
import { parseWorkflow } from './parse-workflow.js';
import { printWorkflow } from './print-workflow.js';
import { recordingToWorkflow, type RecordedEvent, type Recording } from './recording-to-workflow.js';
import { STEP_KINDS, type Workflow } from './workflow-ir.js';

/*
 * The recorder's output always parses (and every action it writes runs without the model), and
 * parsing then printing is stable: print(parse(s)) parses to the same IR and prints the same text.
 */

/** Text a page could give as a label or name: any code points, line breaks and quotes included. */
const pageText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', 'Email', '搜索', '"quoted"', 'a\\b', 'x\ny', 'Ｅｍａｉｌ', '1st', '{var}', '#'),
  fc.string({ unit: fc.constantFrom('a', '_', '-', ' ', '1', 'é', '\n', '"', '\u2028'), maxLength: 200 }),
);
const role = fc.option(
  fc.oneof(fc.constantFrom('button', 'Link', 'menuitem-radio', 'textbox', ''), pageText),
  {
    nil: undefined,
  },
);
const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'https://a.example/reset/x',
    'javascript:void(0)',
    'about:blank',
    'no url',
    'http://[::1]:8080/p q',
  ),
  pageText,
);
const event: fc.Arbitrary<RecordedEvent> = fc.oneof(
  url.map((u) => ({ type: 'navigate' as const, url: u })),
  fc.record(
    { type: fc.constant('click' as const), name: pageText, role },
    { requiredKeys: ['type', 'name'] },
  ),
  fc.record(
    { type: fc.constant('type' as const), name: pageText, role, sensitive: fc.boolean() },
    { requiredKeys: ['type', 'name', 'sensitive'] },
  ),
  fc.constant({ type: 'extract' as const }),
);
const recording: fc.Arbitrary<Recording> = fc.record(
  { site: pageText, trigger: pageText, events: fc.array(event, { maxLength: 30 }) },
  { requiredKeys: ['events'] },
);

describe('the recorder output', () => {
  it('always parses, to the IR it was printed from, with no warning', () => {
    fc.assert(
      fc.property(recording, (taken) => {
        const workflow = recordingToWorkflow(taken);
        const parsed = parseWorkflow(printWorkflow(workflow));
        expect(parsed.warnings).toEqual([]);
        if (taken.events.length === 0) {
          expect(parsed.ok ? [] : parsed.errors.map((e) => e.code)).toEqual(['no-steps']);
          return;
        }
        expect(parsed).toEqual({ ok: true, workflow, warnings: [] });
      }),
      { numRuns: 300 },
    );
  });

  it('writes only actions that run by themselves (a bare navigate aside), typing declared inputs', () => {
    fc.assert(
      fc.property(recording, (taken) => {
        const workflow = recordingToWorkflow(taken);
        for (const step of workflow.steps.filter((s) => s.kind === 'action' && s.text !== 'navigate')) {
          const action = parseActionText(step.text);
          expect(action).toMatchObject({ ok: true });
          if (action.ok && action.command.verb === 'type' && action.command.value.kind === 'input')
            expect(workflow.inputs).toContain(action.command.value.name);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Sources that are mostly workflow-shaped, with every sort of line the grammar knows and some it does not. */
const piece = fc.oneof(pageText, fc.constantFrom('{a}', '{b-c}', ' ', '\t', ':'));
const word = fc.stringMatching(/^[a-z_][\w-]{0,8}$/);
const sometimes = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: usual }, { weight: 1, arbitrary: odd });
const frontMatterLine = sometimes(
  fc.oneof(
    fc
      .array(fc.constantFrom('a', 'b', 'b-c', '_d'), { maxLength: 4 })
      .map((n) => `inputs: [${[...new Set(n)].join(', ')}]`),
    fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }).map((n) => `inputs: ${[...new Set(n)].join(',')}`),
    piece.map((v) => `trigger:${v}`),
    fc.constantFrom('', '# note', 'extra: 1', '  '),
  ),
  fc.oneof(piece, fc.constantFrom('inputs: [1e]', 'inputs: [a', 'site: again')),
);
const bodyLine = sometimes(
  fc.oneof(
    fc
      .tuple(
        fc.constantFrom('', '1. ', '- ', '  12.', '\t'),
        fc.constantFrom(...STEP_KINDS),
        fc.oneof(word, piece),
      )
      .map(([marker, kind, text]) => `${marker}${kind}: ${text}`),
    fc.constantFrom('', '# c', '   '),
  ),
  fc.oneof(piece, fc.constantFrom('x: y', 'API: z')),
);
const source = fc
  .tuple(
    fc.constantFrom('', '\uFEFF'),
    fc.oneof(word, piece).map((site) => `site: ${site}`),
    fc.array(frontMatterLine, { maxLength: 4 }),
    fc.array(bodyLine, { minLength: 1, maxLength: 8 }),
    fc.constantFrom('\n', '\r\n', '\r'),
  )
  .map(([bom, site, head, body, nl]) => bom + ['---', site, ...head, '---', ...body].join(nl));

const withoutLines = (workflow: Workflow) => ({
  ...workflow,
  steps: workflow.steps.map(({ index, kind, text }) => ({ index, kind, text })),
});

describe('parse → print → parse', () => {
  it('is stable for every source that parses, and parsing never throws', () => {
    let parsedSome = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 9, arbitrary: source }, { weight: 1, arbitrary: fc.string({ unit: 'binary' }) }),
        (text) => {
          const first = parseWorkflow(text);
          if (!first.ok) return;
          parsedSome++;
          const printed = printWorkflow(first.workflow);
          const second = parseWorkflow(printed);
          expect(second.ok && withoutLines(second.workflow)).toEqual(withoutLines(first.workflow));
          expect(second.ok && printWorkflow(second.workflow)).toBe(printed);
        },
      ),
      { numRuns: 1000 },
    );
    // The generator must reach the interesting side, or the property says nothing.
    expect(parsedSome).toBeGreaterThan(100);
  });
});
