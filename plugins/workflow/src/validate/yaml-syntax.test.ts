import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { yamlSyntaxDiagnostics } from './yaml-syntax.js';

const corpus = new URL('../../../../../shared/corpora/starter-workflows/', import.meta.url);

const at = (text: string) => yamlSyntaxDiagnostics(text).map(({ line, col }) => ({ line, col }));

describe('yamlSyntaxDiagnostics', () => {
  it('reports each parse error at its 1-based line and column, as a syntax-check error', () => {
    const text = 'on: push\njobs:\n  a: b: c\n';
    expect(yamlSyntaxDiagnostics(text)).toEqual([
      {
        line: 3,
        col: 6,
        message: 'could not parse as YAML: Nested mappings are not allowed in compact mappings',
        severity: 'error',
        kind: 'syntax-check',
      },
    ]);
  });

  it.each([
    [
      'an unclosed flow sequence',
      'jobs:\n  a:\n    runs-on: [ubuntu\n    steps: []\n',
      [{ line: 4, col: 5 }],
    ],
    ['a tab as indentation', 'on: push\n\tjobs: x\n', [{ line: 2, col: 1 }]],
    ['a bad escape in a quoted string', 'on: push\nname: "a\\qb"\n', [{ line: 2, col: 9 }]],
    ['an alias without its anchor', 'on: push\nname: *missing\n', [{ line: 2, col: 7 }]],
    ['an alias before its anchor', 'a: *x\nb: &x 1\n', [{ line: 1, col: 4 }]],
  ])('finds %s', (_what, text, expected) => {
    expect(at(text)).toEqual(expected);
  });

  it('lists every error in the order of the text', () => {
    const text = 'a: *nope\nb: [1\nc: "\\q"\n';
    const lines = yamlSyntaxDiagnostics(text).map((d) => d.line);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect([...lines].sort((x, y) => x - y)).toEqual(lines);
  });

  it('leaves workflow-level problems to actionlint: duplicate keys, a second document, an empty file', () => {
    expect(yamlSyntaxDiagnostics('on: push\non: pull_request\n')).toEqual([]);
    expect(yamlSyntaxDiagnostics('on: push\n---\njobs: {}\n')).toEqual([]);
    expect(yamlSyntaxDiagnostics('')).toEqual([]);
    expect(yamlSyntaxDiagnostics('# only a comment\n')).toEqual([]);
    expect(yamlSyntaxDiagnostics('a: &x 1\nb: *x\n')).toEqual([]);
  });

  it('finds nothing in any starter workflow of the corpus', () => {
    const files = readdirSync(corpus, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.ya?ml$/.test(f),
    );
    expect(files.length).toBeGreaterThan(150);
    for (const file of files) {
      expect(yamlSyntaxDiagnostics(readFileSync(new URL(file, corpus), 'utf8')), file).toEqual([]);
    }
  });
});
