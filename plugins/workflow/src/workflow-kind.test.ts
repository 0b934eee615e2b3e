import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workflowKind } from './workflow-kind.js';

const corpus = new URL('../../../../shared/corpora/starter-workflows/', import.meta.url);

describe('workflowKind', () => {
  it('claims files under .github/workflows by path alone', () => {
    expect(workflowKind.detect('/repo/.github/workflows/ci.yml', '')).toBe(true);
    expect(workflowKind.detect('/repo/.github/workflows/release.yaml', 'name: x')).toBe(true);
    expect(workflowKind.detect('/repo/.github/ci.yml', 'name: x')).toBe(false);
  });

  it('claims untitled text and other YAML files that have top-level on: and jobs:', () => {
    const yaml = 'name: CI\non:\n  push:\njobs:\n  build:\n    runs-on: ubuntu-latest\n';
    expect(workflowKind.detect(null, yaml)).toBe(true);
    expect(workflowKind.detect('/tmp/ci.yml', yaml.replace('on:', '"on":'))).toBe(true);
    expect(workflowKind.detect('/tmp/ci.yml', 'name: CI\njobs:\n  a: {}\n')).toBe(false);
  });

  it('leaves Markdown alone, even Markdown that quotes a workflow', () => {
    const md = '# Notes\n\n```yaml\non: push\njobs:\n  a: {}\n```\n';
    expect(workflowKind.detect('/tmp/notes.md', md)).toBe(false);
    expect(workflowKind.detect(null, '# Title\n\nSome text about jobs: and on: keys.\n')).toBe(false);
  });

  it('recognises every starter workflow of the corpus by content', () => {
    const files = readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.ya?ml$/.test(f),
    );
    expect(files.length).toBeGreaterThan(50);
    const missed = files.filter((f) => !workflowKind.detect(null, readFileSync(new URL(f, corpus), 'utf8')));
    expect(missed).toEqual([]);
  });
});
