/**
 * Every starter workflow of the corpus: an edit of a field it has and of fields it lacks
 * changes only the edited node's lines, means what the patch says (checked against the
 * parsed data), is idempotent, and its inverse restores the file byte for byte.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { applyPatches } from './apply-patches.js';
import { diffLines, splitLines } from './line-diff.js';
import type { IRPatch } from './patch-schema.js';
import { mapRefOf, type MapRef } from './cst-lookup.js';
import { openSession, printSession } from './edit-session.js';
import { deleteEntry, getEntry, setEntry } from './map-entries.js';
import { PatchError } from './patch-error.js';

// src/patch/ → src → workflow → plugins → main → /work: the shared corpora sit beside the repo.
const CORPUS = new URL('../../../../../shared/corpora/starter-workflows/', import.meta.url);
const FILES = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.ya?ml$/.test(file))
  .sort();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonMap = { [key: string]: Json };

const read = (file: string): string => readFileSync(new URL(file, CORPUS), 'utf8');
const data = (text: string): JsonMap =>
  parseDocument(text, { logLevel: 'error' }).toJS({ maxAliasCount: -1 }) as JsonMap;
const isMap = (value: Json | undefined): value is JsonMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function apply(text: string, patches: IRPatch[], { idempotent = true } = {}): string {
  const result = applyPatches(text, patches);
  expect(result.warnings).toEqual([]);
  // Idempotence: the same batch again changes nothing more (not so for step.insert).
  if (idempotent) expect(applyPatches(result.text, patches).text).toBe(result.text);
  return result.text;
}

/**
 * The edit only inserted text, as whole lines: no line was removed or rewritten, except
 * that a last line without a line break gains one when something is added after it.
 */
function expectPureInsertion(before: string, after: string): void {
  let prefix = 0;
  while (prefix < before.length && before[prefix] === after[prefix]) prefix++;
  expect(after.slice(prefix + after.length - before.length)).toBe(before.slice(prefix));
  const lastLine = splitLines(before).at(-1) ?? '';
  const appendedAtEnd = after.startsWith(before) && !before.endsWith('\n');
  expect(diffLines(before, after).removed).toEqual(appendedAtEnd ? [lastLine] : []);
}

function firstJob(js: JsonMap): [string, JsonMap] | undefined {
  const jobs = js['jobs'];
  if (!isMap(jobs)) return undefined;
  const entry = Object.entries(jobs).find(([, job]) => isMap(job));
  return entry ? [entry[0], entry[1] as JsonMap] : undefined;
}

/**
 * Registers a case only for workflows that have what it edits: a workflow without,
 * say, a `uses:` step has nothing for `with.set` to edit, so there is no test to run.
 */
function whenApplicable(lacksTarget: boolean): (name: string, run: () => void) => void {
  return (name, run) => {
    if (!lacksTarget) it(name, run);
  };
}

describe('starter-workflows corpus', () => {
  it('has the workflows', () => {
    expect(FILES.length).toBeGreaterThan(150);
  });

  describe.each(FILES)('%s', (file) => {
    const source = read(file);
    const before = data(source);

    const job = firstJob(before);
    const steps = job?.[1]['steps'];
    const usesStep = Array.isArray(steps)
      ? steps.findIndex((step) => isMap(step) && typeof step['uses'] === 'string')
      : -1;
    const on = before['on'];
    const filterEvent = isMap(on)
      ? Object.keys(on).find((name) => isMap(on[name]) && !('paths-ignore' in on[name]))
      : undefined;

    whenApplicable(typeof before['name'] !== 'string' && typeof job?.[1]['runs-on'] !== 'string')(
      'edits an existing field in place and restores it',
      () => {
        const useName = typeof before['name'] === 'string';
        const runsOn = job?.[1]['runs-on'];
        const forward: IRPatch = useName
          ? { kind: 'workflow.set', path: 'name', value: 'VMark renamed' }
          : { kind: 'job.set', jobId: (job as [string, JsonMap])[0], path: 'runs-on', value: 'vmark-runner' };
        const after = apply(source, [forward]);
        const diff = diffLines(source, after);
        expect(diff.removed).toHaveLength(1);
        expect(diff.added).toHaveLength(1);
        expect(diff.added[0]).toContain(useName ? 'VMark renamed' : 'vmark-runner');
        const expected = structuredClone(before);
        if (useName) expected['name'] = 'VMark renamed';
        else
          ((expected['jobs'] as JsonMap)[(job as [string, JsonMap])[0]] as JsonMap)['runs-on'] =
            'vmark-runner';
        expect(data(after)).toEqual(expected);
        const back: IRPatch =
          forward.kind === 'workflow.set'
            ? { ...forward, value: before['name'] as string }
            : { ...forward, value: runsOn as string };
        expect(apply(after, [back])).toBe(source);
      },
    );

    it('adds a workflow env entry and removes it again', () => {
      const after = apply(source, [{ kind: 'workflow.set', path: 'env.VMARK_TEST', value: 'patched' }]);
      expectPureInsertion(source, after);
      const expected = structuredClone(before);
      expected['env'] = { ...(isMap(before['env']) ? before['env'] : {}), VMARK_TEST: 'patched' };
      expect(data(after)).toEqual(expected);
      const created = !isMap(before['env']);
      expect(removeWorkflowPath(after, created ? ['env'] : ['env', 'VMARK_TEST']).text).toBe(source);
    });

    whenApplicable(!job || 'timeout-minutes' in job[1])(
      'adds a job key (job.set creates the last key) and removes it again',
      () => {
        const [jobId] = job as [string, JsonMap];
        const after = apply(source, [{ kind: 'job.set', jobId, path: 'timeout-minutes', value: 42 }]);
        expectPureInsertion(source, after);
        const expected = structuredClone(before);
        ((expected['jobs'] as JsonMap)[jobId] as JsonMap)['timeout-minutes'] = 42;
        expect(data(after)).toEqual(expected);
        expect(removeWorkflowPath(after, ['jobs', jobId, 'timeout-minutes']).text).toBe(source);
      },
    );

    whenApplicable(usesStep < 0)('sets a step input with with.set and takes it out with with.remove', () => {
      const stepIndex = usesStep;
      const [jobId] = job as [string, JsonMap];
      const after = apply(source, [{ kind: 'with.set', jobId, stepIndex, key: 'vmark-input', value: 'on' }]);
      expectPureInsertion(source, after);
      const expected = structuredClone(before);
      const step = (((expected['jobs'] as JsonMap)[jobId] as JsonMap)['steps'] as Json[])[
        stepIndex
      ] as JsonMap;
      step['with'] = { ...(isMap(step['with']) ? step['with'] : {}), 'vmark-input': 'on' };
      expect(data(after)).toEqual(expected);
      expect(apply(after, [{ kind: 'with.remove', jobId, stepIndex, key: 'vmark-input' }])).toBe(source);
    });

    // A scalar `needs: a` becomes `[a, vmark-dep]`, whose inverse is the list `[a]`: not byte-identical.
    whenApplicable(!job || typeof job[1]['needs'] === 'string')('adds a need and removes it again', () => {
      const [jobId] = job as [string, JsonMap];
      const after = apply(source, [{ kind: 'needs.add', jobId, ref: 'vmark-dep' }]);
      const expected = structuredClone(before);
      const target = (expected['jobs'] as JsonMap)[jobId] as JsonMap;
      target['needs'] = [...(Array.isArray(target['needs']) ? target['needs'] : []), 'vmark-dep'];
      expect(data(after)).toEqual(expected);
      expect(apply(after, [{ kind: 'needs.remove', jobId, ref: 'vmark-dep' }])).toBe(source);
    });

    whenApplicable(filterEvent === undefined)(
      'adds a trigger filter and removes it with an empty list',
      () => {
        const event = filterEvent as string;
        const patch: IRPatch = {
          kind: 'trigger.setFilters',
          event,
          filter: 'paths-ignore',
          value: ['vmark/**'],
        };
        const after = apply(source, [patch]);
        expectPureInsertion(source, after);
        const expected = structuredClone(before);
        ((expected['on'] as JsonMap)[event] as JsonMap)['paths-ignore'] = ['vmark/**'];
        expect(data(after)).toEqual(expected);
        expect(apply(after, [{ ...patch, value: [] }])).toBe(source);
      },
    );

    whenApplicable(!job)('inserts and deletes a step, creates and deletes a job (internal kinds)', () => {
      const [jobId] = job as [string, JsonMap];
      if (Array.isArray(steps) && steps.length > 0) {
        const insert: IRPatch = {
          kind: 'step.insert',
          jobId,
          index: 1,
          step: { name: 'VMark', run: 'true' },
        };
        const inserted = apply(source, [insert], { idempotent: false });
        const expected = structuredClone(before);
        (((expected['jobs'] as JsonMap)[jobId] as JsonMap)['steps'] as Json[]).splice(1, 0, {
          name: 'VMark',
          run: 'true',
        });
        expect(data(inserted)).toEqual(expected);
        expect(applyPatches(inserted, [{ kind: 'step.delete', jobId, stepIndex: 1 }]).text).toBe(source);
      }
      const created = apply(source, [{ kind: 'job.create', jobId: 'vmark-job' }]);
      expectPureInsertion(source, created);
      expect(applyPatches(created, [{ kind: 'job.delete', jobId: 'vmark-job' }]).text).toBe(source);
    });
  });
});

/** Removes the entry at a key path (the inverse of a set that added it), to see an added key come out byte for byte. */
function removeWorkflowPath(source: string, path: readonly string[]): { text: string; changed: boolean } {
  const session = openSession(source);
  if (session.problem !== undefined)
    throw new PatchError(`The workflow YAML does not parse: ${session.problem}`);
  let ref: MapRef | undefined = session.root;
  let parent: { ref: MapRef; key: string } | undefined;
  for (const key of path.slice(0, -1)) {
    const item: ReturnType<typeof getEntry> = ref && getEntry(ref, key);
    const child: MapRef | undefined = item ? mapRefOf(item) : undefined;
    if (!ref || !child) return { text: source, changed: false };
    parent = { ref, key };
    ref = child;
  }
  const last = path[path.length - 1];
  if (!ref || last === undefined) return { text: source, changed: false };
  if (deleteEntry(ref, last) === 'emptied' && parent) setEntry(parent.ref, parent.key, {}, session.layout);
  const text = printSession(session);
  return { text, changed: text !== source };
}
