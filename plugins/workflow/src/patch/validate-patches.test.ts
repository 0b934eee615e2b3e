import { describe, expect, it } from 'vitest';
import { PatchError } from './patch-error.js';
import { INTERNAL_PATCH_KINDS, MCP_PATCH_KINDS } from './patch-schema.js';
import { validatePatches } from './validate-patches.js';

function problem(input: unknown, allowInternal = false): { message: string; index?: number } {
  try {
    validatePatches(input, { allowInternal });
  } catch (error) {
    expect(error).toBeInstanceOf(PatchError);
    const { message, index } = error as PatchError;
    return index === undefined ? { message } : { message, index };
  }
  throw new Error('expected a PatchError');
}

describe('validatePatches', () => {
  it('lists the eight MCP kinds in the original order, and the seven internal ones', () => {
    expect(MCP_PATCH_KINDS).toEqual([
      'workflow.set',
      'job.set',
      'step.set',
      'with.set',
      'with.remove',
      'needs.add',
      'needs.remove',
      'trigger.setFilters',
    ]);
    expect(INTERNAL_PATCH_KINDS).toEqual([
      'job.create',
      'job.delete',
      'step.insert',
      'step.delete',
      'step.move',
      'workflow.permissions.set',
      'workflow.concurrency.set',
    ]);
  });

  it('keeps the original messages, in the original order', () => {
    expect(problem({ kind: 'workflow.set' })).toEqual({ message: 'patches must be an array' });
    expect(problem([{ kind: 'needs.add', jobId: 'a', ref: 'b' }, null])).toEqual({
      message: 'patches[1] must be an object',
      index: 1,
    });
    expect(problem([['workflow.set']])).toEqual({ message: 'patches[0] must be an object', index: 0 });
    expect(problem([{ path: 'name' }])).toEqual({
      message: 'patches[0].kind is missing or invalid: undefined',
      index: 0,
    });
    expect(problem([{ kind: 'workflow.delete' }])).toEqual({
      message: 'patches[0].kind is missing or invalid: workflow.delete',
      index: 0,
    });
  });

  it('refuses the internal kinds over MCP and accepts them in-app', () => {
    const create = [{ kind: 'job.create', jobId: 'lint' }];
    expect(problem(create)).toEqual({
      message: 'patches[0].kind is missing or invalid: job.create',
      index: 0,
    });
    expect(validatePatches(create, { allowInternal: true })).toEqual(create);
  });

  it('checks every kind of the batch before any field (the original checked only kinds)', () => {
    const batch = [{ kind: 'job.set', jobId: 'build' }, { kind: 'job.explode' }];
    expect(problem(batch)).toEqual({
      message: 'patches[1].kind is missing or invalid: job.explode',
      index: 1,
    });
  });

  it('names the field at fault', () => {
    const at2 = (patch: Record<string, unknown>): unknown => [
      { kind: 'workflow.set', path: 'name', value: 'CI' },
      { kind: 'needs.add', jobId: 'deploy', ref: 'build' },
      patch,
    ];
    expect(problem(at2({ kind: 'step.set', jobId: 'b', stepIndex: -1, path: 'name', value: 'x' }))).toEqual({
      message: 'patches[2].stepIndex must be a non-negative integer',
      index: 2,
    });
    expect(
      problem(at2({ kind: 'step.set', jobId: 'b', stepIndex: 1.5, path: 'name', value: 'x' })).message,
    ).toBe('patches[2].stepIndex must be a non-negative integer');
    expect(problem(at2({ kind: 'job.set', path: 'name', value: 'x' })).message).toBe(
      'patches[2].jobId is missing; it must be a non-empty string',
    );
    expect(problem(at2({ kind: 'job.set', jobId: '', path: 'name', value: 'x' })).message).toBe(
      'patches[2].jobId must be a non-empty string',
    );
    expect(problem(at2({ kind: 'workflow.set', path: 'env..X', value: 'x' })).message).toBe(
      'patches[2].path must be a dotted path of non-empty keys, such as "env.NODE_VERSION"',
    );
    expect(problem(at2({ kind: 'workflow.set', path: 'env.X', value: { nested: true } })).message).toBe(
      'patches[2].value must be a string, a finite number, a boolean, null or an array of strings',
    );
    expect(problem(at2({ kind: 'with.set', jobId: 'b', stepIndex: 0, key: 'k', value: null })).message).toBe(
      'patches[2].value must be a string, a finite number or a boolean',
    );
    expect(
      problem(at2({ kind: 'trigger.setFilters', event: 'push', filter: 'branch', value: [] })).message,
    ).toBe(
      'patches[2].filter must be one of branches, branches-ignore, tags, tags-ignore, paths, paths-ignore, types',
    );
    expect(
      problem(at2({ kind: 'trigger.setFilters', event: 'push', filter: 'tags', value: ['v1', 2] })).message,
    ).toBe('patches[2].value[1] must be a string');
    expect(problem(at2({ kind: 'needs.add', jobId: 'a', ref: 'b', refs: ['c'] })).message).toBe(
      'patches[2].refs is not a field of needs.add',
    );
    expect(problem(at2({ kind: 'step.insert', jobId: 'a', index: 0, step: { run: 1 } }), true).message).toBe(
      'patches[2].step.run must be a string',
    );
  });

  it('returns the patches, typed', () => {
    const patches = [
      { kind: 'workflow.set', path: 'env.NODE', value: ['20', '22'] },
      { kind: 'trigger.setFilters', event: 'push', filter: 'paths', value: [] },
    ];
    expect(validatePatches(patches, { allowInternal: false })).toEqual(patches);
    expect(validatePatches([], { allowInternal: false })).toEqual([]);
  });
});
