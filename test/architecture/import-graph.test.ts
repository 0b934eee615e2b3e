import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module shared with the lint rule; it has no type declarations
import { CORE_FLOORS, coreFolder, floorViolation } from '../../eslint/core-floors.js';

/*
 * Core's import graph, read from the sources: every import points down a floor
 * (eslint/core-floors.js, the same table `vmark/layers` lints with) and no module
 * reaches itself through its imports. The lint rule sees one file at a time; a
 * cycle only shows on the whole graph.
 */

const CORE = fileURLToPath(new URL('../../core/', import.meta.url));
const floorOf = coreFolder as (rel: string) => string | null;
const whyNot = floorViolation as (from: string | null, to: string | null) => string | null;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The relative imports of a module (static, re-exports and dynamic), as paths relative to core/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm),
  ].map((m) => m[1]!);
  return specifiers.map((s) => toRel(path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts'))));
}

const toRel = (full: string) => path.relative(CORE, full).split(path.sep).join('/');

const graph = new Map(
  sourceFiles(CORE).map((file) => [toRel(file), importsOf(file).filter((t) => !t.startsWith('..'))]),
);

/** A cycle in the graph as a path of modules, or `null`. */
function findCycle(edges: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe("core's import graph", () => {
  it('reads the sources (a graph this small would mean the walk broke)', () => {
    expect(graph.size).toBeGreaterThan(150);
  });

  it('puts every folder of core on a floor', () => {
    const known = new Set((CORE_FLOORS as string[][]).flat());
    const folders = new Set([...graph.keys()].map(floorOf).filter((f): f is string => f !== null));
    expect([...folders].filter((f) => !known.has(f))).toEqual([]);
  });

  it('imports only downward, and the renderer only the protocol', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.flatMap((to) => {
        const why = whyNot(floorOf(from), floorOf(to));
        return why ? [`${from} → ${to}: ${why}`] : [];
      }),
    );
    expect(upward).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('would see an upward import and a cycle (the checks can fail)', () => {
    expect(whyNot('vault', 'mcp')).toMatch(/lies above it/);
    expect(whyNot('shell/renderer', 'documents')).toMatch(/sees only/);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
  });
});
