// Lexical half of the scope guard; cases ported from the MCP filesystem
// reference server's path-validation tests, asked through lexicalResolve + isWithinRoot.
import path from 'node:path';
import { isDomainError } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { isWithinRoot, lexicalResolve, quotePath } from './path-scope.js';

const ROOT = '/home/user/project';

/** What the guard decides for `input` against `roots`, lexically. */
function inScope(input: string, roots: readonly string[], base: string | undefined = ROOT): boolean {
  const resolved = lexicalResolve(input, base);
  return roots.some((root) => isWithinRoot(resolved, path.resolve(root)));
}

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('isWithinRoot', () => {
  it('accepts the root itself and paths below it', () => {
    expect(isWithinRoot(ROOT, ROOT)).toBe(true);
    expect(isWithinRoot(`${ROOT}/src`, ROOT)).toBe(true);
    expect(isWithinRoot(`${ROOT}/deeply/nested/file.md`, ROOT)).toBe(true);
  });

  it('refuses the prefix trick: /tmp/x/root does not contain /tmp/x/root-evil', () => {
    expect(isWithinRoot('/tmp/x/root-evil', '/tmp/x/root')).toBe(false);
    expect(isWithinRoot('/tmp/x/root-evil/secret.md', '/tmp/x/root')).toBe(false);
    for (const sibling of ['project2', 'project_backup', 'project-old', 'projectile', 'project.bak']) {
      expect(isWithinRoot(`/home/user/${sibling}`, ROOT)).toBe(false);
    }
  });

  it('refuses parents and unrelated paths', () => {
    expect(isWithinRoot('/home/user', ROOT)).toBe(false);
    expect(isWithinRoot('/etc/passwd', ROOT)).toBe(false);
    expect(isWithinRoot('/', ROOT)).toBe(false);
  });

  it('treats root "/" as containing every absolute path (and only those)', () => {
    expect(isWithinRoot('/', '/')).toBe(true);
    expect(isWithinRoot('/etc/passwd', '/')).toBe(true);
    expect(isWithinRoot('/home/user/secret', '/')).toBe(true);
  });

  it('does not equate Unicode spellings: a decomposed é is another folder', () => {
    expect(isWithinRoot('/home/user/café/a.md', '/home/user/café')).toBe(true);
    expect(isWithinRoot('/home/user/cafe\u0301/a.md', '/home/user/café')).toBe(false);
  });
});

describe('lexicalResolve refuses malformed input', () => {
  it.each([
    ['/home/user/project\0/etc/passwd'],
    ['/home/user/project/test\0.md'],
    ['\0/home/user/project'],
    ['/home/user/project/\0'],
  ])('refuses a NUL byte that would cut the path short: %j', (input) => {
    const { code, message } = refusal(() => lexicalResolve(input, ROOT));
    expect(code).toBe('INVALID_PATH');
    expect(message).toContain('contains a NUL byte');
    // The message quotes the path so the NUL is visible.
    expect(message).toContain(JSON.stringify(input));
  });

  it.each([[''], [' '], ['   '], ['\t'], ['\n'], [' \r\n ']])(
    'refuses empty or whitespace-only input %j',
    (input) => {
      const { code, message } = refusal(() => lexicalResolve(input, ROOT));
      expect(code).toBe('INVALID_PATH');
      expect(message).toContain('must not be empty');
      expect(message).toContain(JSON.stringify(input));
    },
  );

  it.each([[123], [{}], [[]], [null], [undefined]])(
    'refuses a non-string %j from an untyped caller',
    (input) => {
      // `as never` defeats the types on purpose: tool arguments arrive untyped.
      const { code, message } = refusal(() => lexicalResolve(input as never, ROOT));
      expect(code).toBe('INVALID_PATH');
      expect(message).toContain('must be a string');
    },
  );

  it('refuses a relative path when there is no folder to resolve it against', () => {
    const { code, message } = refusal(() => lexicalResolve('notes/a.md', undefined));
    expect(code).toBe('INVALID_PATH');
    expect(message).toContain('"notes/a.md" is relative');
  });

  it('makes control characters visible in the message', () => {
    const { message } = refusal(() => lexicalResolve('a\u001b[31m\0', ROOT));
    expect(message).toContain('a\\u001b[31m\\u0000');
  });
});

describe('lexicalResolve keeps legal names as they are', () => {
  it('never trims: a file named "a.md " is distinct from "a.md"', () => {
    expect(lexicalResolve(`${ROOT}/a.md `, undefined)).toBe(`${ROOT}/a.md `);
    expect(lexicalResolve('a.md ', ROOT)).toBe(`${ROOT}/a.md `);
    expect(lexicalResolve(' a.md', ROOT)).toBe(`${ROOT}/ a.md`);
    expect(lexicalResolve('a.md ', ROOT)).not.toBe(lexicalResolve('a.md', ROOT));
  });

  it('resolves relative input against the base, not the process cwd', () => {
    expect(lexicalResolve('notes/a.md', ROOT)).toBe(`${ROOT}/notes/a.md`);
    expect(lexicalResolve('./a.md', ROOT)).toBe(`${ROOT}/a.md`);
  });

  it('allows unicode and spaces in names', () => {
    expect(inScope('/home/user/my project/文件 名.md', ['/home/user/my project'])).toBe(true);
    expect(inScope('筆記/café ☕.md', [ROOT])).toBe(true);
    expect(inScope('/home/user/my proj', ['/home/user/my project'])).toBe(false);
    expect(inScope('/home/user/my', ['/home/user/my project'])).toBe(false);
  });

  it('treats percent signs literally: %2e%2e is a file name, not ".."', () => {
    for (const name of [
      'report_50%.md',
      'Q1_25%_growth',
      '%41',
      '%2e%2e',
      '%2e%2e%2f%2e%2e%2fetc',
      'file%20name',
    ]) {
      expect(inScope(`${ROOT}/${name}`, [ROOT])).toBe(true);
      expect(lexicalResolve(name, ROOT)).toBe(`${ROOT}/${name}`);
    }
    expect(inScope('/home/user/project files/a', ['/home/user/project%20files'])).toBe(false);
  });

  it('drops trailing and doubled separators without opening the prefix trick', () => {
    for (const input of [
      `${ROOT}/`,
      `${ROOT}//`,
      `${ROOT}///`,
      `${ROOT}/./src`,
      '/home//user//project//src',
    ]) {
      expect(inScope(input, [ROOT])).toBe(true);
    }
    expect(lexicalResolve(`${ROOT}/notes/`, undefined)).toBe(`${ROOT}/notes`);
    expect(inScope('/home/user/project2/', [ROOT])).toBe(false);
    expect(inScope('/home/user//project2', [ROOT])).toBe(false);
  });

  it('treats dots inside names as names: ..test, test.., te..st, ..., ....', () => {
    for (const name of ['..test', 'test..', 'te..st', '...', '....', '.']) {
      expect(inScope(`${ROOT}/${name}`, [ROOT])).toBe(true);
    }
  });
});

describe('traversal is resolved before the scope check', () => {
  it.each([
    '../secret.md',
    '../../../etc/passwd',
    `${ROOT}/../../../etc/passwd`,
    `${ROOT}/../../other`,
    `${ROOT}/../project2`,
    `${ROOT}/..`,
    `${ROOT}/../test`,
  ])('refuses ../ traversal out of the root: %s', (input) => {
    expect(inScope(input, [ROOT])).toBe(false);
  });

  it.each([
    `${ROOT}/src/../../project2`,
    `${ROOT}/./../../other`,
    `${ROOT}/../project/../../../etc`,
    'a/b/../../../project-evil/x.md',
    `${ROOT}/${'a/'.repeat(1000)}${'../'.repeat(1001)}etc/passwd`,
  ])('refuses complex traversal patterns: %s', (input) => {
    expect(inScope(input, [ROOT])).toBe(false);
  });

  it('allows traversal that stays inside the root', () => {
    expect(inScope(`${ROOT}/a/b/../c.md`, [ROOT])).toBe(true);
    expect(inScope('a/../b.md', [ROOT])).toBe(true);
    expect(inScope(`${ROOT}/${'a/'.repeat(1000)}file.md`, [ROOT])).toBe(true);
  });

  it('refuses an absolute path outside every root', () => {
    expect(inScope('/etc/passwd', [ROOT])).toBe(false);
    expect(inScope('/home/user/other/a.md', [ROOT, '/home/user/docs'])).toBe(false);
  });

  it('normalizes roots that are written with traversal', () => {
    expect(inScope('/home/user/safe/file', ['/home/user/project/../safe'])).toBe(true);
    expect(inScope(`${ROOT}/file`, ['/home/user/project/../safe'])).toBe(false);
  });
});

describe('several roots', () => {
  it('accepts a path under any one of them and nothing between them', () => {
    const roots = ['/home/user/project1', '/home/user/project2'];
    expect(inScope('/home/user/project1/src', roots)).toBe(true);
    expect(inScope('/home/user/project2/src', roots)).toBe(true);
    expect(inScope('/home/user/project3', roots)).toBe(false);
    expect(inScope('/home/user/project1_backup', roots)).toBe(false);
  });

  it('handles nested and overlapping roots as their union', () => {
    const roots = ['/home/user/project', '/home/user', '/home/user/project/sub'];
    expect(inScope('/home/user/anything', roots)).toBe(true);
    expect(inScope('/home/user/project/sub/x', roots)).toBe(true);
    expect(inScope('/home/other', roots)).toBe(false);
  });
});

describe('quotePath', () => {
  it('renders anything without throwing', () => {
    expect(quotePath('a b ')).toBe('"a b "');
    expect(quotePath(undefined)).toBe('undefined');
    expect(quotePath(10n)).toBe('bigint');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(quotePath(cyclic)).toBe('object');
  });
});
