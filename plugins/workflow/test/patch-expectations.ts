import { expect } from 'vitest';
import { applyPatches, diffLines, type IRPatch } from '../src/patch/index.js';

/** The text with the one occurrence of `from` replaced (a missing or repeated `from` fails). */
export function swap(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  expect(at, `fixture lacks ${JSON.stringify(from)}`).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(from, at + 1), `${JSON.stringify(from)} is not unique`).toBe(-1);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Lines of a diff chunk without their line endings. */
export const lines = (chunk: readonly string[]): string[] => chunk.map((line) => line.replace(/\r?\n$/, ''));

/**
 * Checks for patches applied to one fixture. `expectEdit` checks the exact text and that
 * exactly the given lines were removed and added — and, for kinds that are idempotent
 * (all MCP kinds; not e.g. step.insert), that applying the batch again changes nothing.
 */
export interface PatchExpectations {
  readonly expectEdit: (patches: IRPatch[], expected: string, changed: LineChanges) => string;
  readonly expectNoChange: (patches: IRPatch[], warnings: string[]) => void;
}

type LineChanges = { removed: string[]; added: string[] };

export function patchExpectations(fixture: string, options: { idempotent: boolean }): PatchExpectations {
  return {
    expectEdit(
      patches: IRPatch[],
      expected: string,
      changed: { removed: string[]; added: string[] },
    ): string {
      const result = applyPatches(fixture, patches);
      expect(result.warnings).toEqual([]);
      expect(result.text).toBe(expected);
      expect(result.changed).toBe(true);
      const diff = diffLines(fixture, result.text);
      expect({ removed: lines(diff.removed), added: lines(diff.added) }).toEqual(changed);
      if (options.idempotent) expect(applyPatches(result.text, patches).text).toBe(result.text);
      return result.text;
    },
    expectNoChange: (patches, warnings) => {
      const result = applyPatches(fixture, patches);
      expect(result).toMatchObject({ text: fixture, changed: false, warnings });
    },
  };
}
