/**
 * A semantic oracle over the corpus: for every starter workflow, a spread of patches of
 * every kind is applied one at a time and the parsed result must equal the parsed original
 * with the same change made to the data. (corpus.test.ts checks the bytes; this checks
 * the meaning, including edits next to comments and block scalars the bytes check cannot
 * see, such as a comment line swallowed by a block scalar.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { applyPatches } from './apply-patches.js';
import type { IRPatch } from './patch-schema.js';

const CORPUS = new URL('../../../../../shared/corpora/starter-workflows/', import.meta.url);
const FILES = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.ya?ml$/.test(file))
  .sort();

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonMap = { [key: string]: Json };
interface Case {
  readonly patch: IRPatch;
  /** Makes the patch's change to (a copy of) the original data. */
  readonly expect: (data: JsonMap) => void;
}

const data = (text: string): JsonMap =>
  parseDocument(text, { logLevel: 'error' }).toJS({ maxAliasCount: -1 }) as JsonMap;
const isMap = (value: Json | undefined): value is JsonMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const jobOf = (js: JsonMap, jobId: string): JsonMap => (js['jobs'] as JsonMap)[jobId] as JsonMap;
const stepsOf = (js: JsonMap, jobId: string): Json[] => jobOf(js, jobId)['steps'] as Json[];

function stepCases(jobId: string, steps: readonly Json[]): Case[] {
  const cases: Case[] = [];
  steps.forEach((step, i) => {
    cases.push(
      {
        patch: { kind: 'step.delete', jobId, stepIndex: i },
        expect: (js) => void stepsOf(js, jobId).splice(i, 1),
      },
      {
        patch: { kind: 'step.insert', jobId, index: i, step: { name: 'Inserted', run: 'echo "${{ x }}"' } },
        expect: (js) => void stepsOf(js, jobId).splice(i, 0, { name: 'Inserted', run: 'echo "${{ x }}"' }),
      },
      {
        patch: { kind: 'step.move', jobId, fromIndex: i, toIndex: 0 },
        expect: (js) => {
          const list = stepsOf(js, jobId);
          list.unshift(...list.splice(i, 1));
        },
      },
      {
        patch: { kind: 'step.move', jobId, fromIndex: i, toIndex: steps.length },
        expect: (js) => {
          const list = stepsOf(js, jobId);
          list.push(...list.splice(i, 1));
        },
      },
    );
    if (!isMap(step)) return;
    cases.push(
      {
        patch: { kind: 'step.set', jobId, stepIndex: i, path: 'name', value: 'Renamed: step #1' },
        expect: (js) => void ((stepsOf(js, jobId)[i] as JsonMap)['name'] = 'Renamed: step #1'),
      },
      {
        patch: { kind: 'step.set', jobId, stepIndex: i, path: 'run', value: 'make\nmake test\n' },
        expect: (js) => void ((stepsOf(js, jobId)[i] as JsonMap)['run'] = 'make\nmake test\n'),
      },
    );
    const inputs = step['with'];
    if (!isMap(inputs)) return;
    for (const key of Object.keys(inputs)) {
      cases.push(
        {
          patch: { kind: 'with.set', jobId, stepIndex: i, key, value: 7 },
          expect: (js) => void (((stepsOf(js, jobId)[i] as JsonMap)['with'] as JsonMap)[key] = 7),
        },
        {
          patch: { kind: 'with.remove', jobId, stepIndex: i, key },
          expect: (js) => {
            const target = stepsOf(js, jobId)[i] as JsonMap;
            delete (target['with'] as JsonMap)[key];
            if (Object.keys(target['with'] as JsonMap).length === 0) delete target['with'];
          },
        },
      );
    }
  });
  return cases;
}

function jobCases(jobId: string, job: JsonMap): Case[] {
  const cases: Case[] = [
    { patch: { kind: 'job.delete', jobId }, expect: (js) => void delete (js['jobs'] as JsonMap)[jobId] },
    {
      patch: { kind: 'needs.add', jobId, ref: 'extra-job' },
      expect: (js) => {
        const needs = jobOf(js, jobId)['needs'];
        jobOf(js, jobId)['needs'] =
          typeof needs === 'string'
            ? [needs, 'extra-job']
            : [...(Array.isArray(needs) ? needs : []), 'extra-job'];
      },
    },
  ];
  for (const [key, value] of Object.entries(job))
    if (typeof value !== 'object' || value === null)
      cases.push({
        patch: { kind: 'job.set', jobId, path: key, value: ['label-a', 'label b'] },
        expect: (js) => void (jobOf(js, jobId)[key] = ['label-a', 'label b']),
      });
  return cases;
}

function workflowCases(js: JsonMap): Case[] {
  const cases: Case[] = [
    {
      patch: { kind: 'workflow.permissions.set', value: { contents: 'read', issues: 'write' } },
      expect: (copy) => void (copy['permissions'] = { contents: 'read', issues: 'write' }),
    },
    {
      patch: { kind: 'workflow.concurrency.set', value: { group: 'g', cancelInProgress: true } },
      expect: (copy) => void (copy['concurrency'] = { group: 'g', 'cancel-in-progress': true }),
    },
    {
      patch: { kind: 'job.create', jobId: 'new-job' },
      expect: (copy) =>
        void ((copy['jobs'] as JsonMap)['new-job'] = { 'runs-on': 'ubuntu-latest', steps: [] }),
    },
  ];
  const on = js['on'];
  if (isMap(on))
    for (const [event, filters] of Object.entries(on)) {
      if (!isMap(filters)) continue;
      for (const filter of ['branches', 'paths', 'types'] as const) {
        const value = ['main', "it's", '*.md'];
        cases.push({
          patch: { kind: 'trigger.setFilters', event, filter, value },
          expect: (copy) => void (((copy['on'] as JsonMap)[event] as JsonMap)[filter] = value),
        });
        if (filter in filters)
          cases.push({
            patch: { kind: 'trigger.setFilters', event, filter, value: [] },
            expect: (copy) => void delete ((copy['on'] as JsonMap)[event] as JsonMap)[filter],
          });
      }
    }
  return cases;
}

describe('corpus semantics', () => {
  it.each(FILES)('%s: each patch means what it says', (file) => {
    const source = readFileSync(new URL(file, CORPUS), 'utf8');
    const before = data(source);
    const jobs = isMap(before['jobs']) ? Object.entries(before['jobs']).filter(([, job]) => isMap(job)) : [];
    const cases = workflowCases(before);
    jobs.slice(0, 2).forEach(([jobId, job], index) => {
      cases.push(...jobCases(jobId, job as JsonMap));
      const steps = (job as JsonMap)['steps'];
      if (index === 0 && Array.isArray(steps) && steps.length > 1) cases.push(...stepCases(jobId, steps));
    });
    for (const { patch, expect: change } of cases) {
      const result = applyPatches(source, [patch]);
      const expected = structuredClone(before);
      change(expected);
      expect(result.warnings, JSON.stringify(patch)).toEqual([]);
      expect(data(result.text), JSON.stringify(patch)).toEqual(expected);
    }
  });
});
