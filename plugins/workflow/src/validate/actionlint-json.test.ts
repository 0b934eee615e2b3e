import { describe, expect, it } from 'vitest';
import { diagnosticsFromActionlintJson, parseActionlintOutput } from './actionlint-json.js';

describe('parseActionlintOutput', () => {
  it("reads the CLI's {{json .}} report, mapping column to col and keeping kind", () => {
    const stdout =
      '[{"message":"unexpected key \\"branchs\\"","filepath":".github/workflows/ci.yml","line":4,"column":5,' +
      '"kind":"syntax-check","snippet":"    branchs: [main]\\n    ^~~~~~~~","end_column":11}]\n';
    expect(parseActionlintOutput(stdout)).toStrictEqual([
      { line: 4, col: 5, message: 'unexpected key "branchs"', severity: 'error', kind: 'syntax-check' },
    ]);
  });

  it('reads [] and null (an empty Go slice) as no findings', () => {
    expect(parseActionlintOutput('[]\n')).toStrictEqual([]);
    expect(parseActionlintOutput('null\n')).toStrictEqual([]);
  });

  it('refuses empty output, non-JSON and JSON of another shape', () => {
    expect(parseActionlintOutput('')).toBeNull();
    expect(parseActionlintOutput('ci.yml:4:5: unexpected key [syntax-check]')).toBeNull();
    expect(parseActionlintOutput('{"message":"x","line":1,"column":1}')).toBeNull();
    expect(parseActionlintOutput('[{"message":"x","line":"1","column":1}]')).toBeNull();
    // One malformed entry refuses the whole report rather than showing part of it as if complete.
    expect(parseActionlintOutput('[{"message":"x","line":1,"column":1},{"line":2}]')).toBeNull();
  });
});

describe('diagnosticsFromActionlintJson', () => {
  it("reads the WebAssembly build's {file, line, column, message, kind} results", () => {
    expect(
      diagnosticsFromActionlintJson([
        { file: 'untitled.yml', line: 6, column: 3, message: 'job "b" needs job "x"', kind: 'job-needs' },
        { file: 'untitled.yml', line: 7, column: 1, message: 'no kind', kind: '' },
      ]),
    ).toStrictEqual([
      { line: 6, col: 3, message: 'job "b" needs job "x"', severity: 'error', kind: 'job-needs' },
      { line: 7, col: 1, message: 'no kind', severity: 'error' },
    ]);
  });
});
