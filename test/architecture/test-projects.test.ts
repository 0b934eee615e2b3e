import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { DRIVE_THE_CLI } from '../../vitest.config.js';

/*
 * The end-to-end files that run two at a time (vitest.config.ts) start no Chromium: two browsers
 * side by side on a small machine push the product past its own time limits. A file that starts
 * one, by the test helpers or through the product's browser tools, belongs to the serial project.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SELF = 'test/architecture/test-projects.test.ts'; // its pattern below names what it looks for

function testFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(rel);
    return entry.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** The project's globs as they are written there: `**` for any folders, `*` within a name. */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('/')
    .map((part) =>
      part === '**'
        ? '(?:[^/]+/)*'
        : `${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
    )
    .join('')
    .slice(0, -1);
  return new RegExp(`^${body.replace('(?:[^/]+/)*/', '(?:[^/]+/)*')}$`);
}

const STARTS_CHROMIUM =
  /launchChromium|serveWithPage|startEditorSession|chromium\.launch|support\/(browser-editor|cdp-chromium|cdp-person|local-page|screenshots)\.js|'browser(_read)?', \{|call\([^)]*'browser(_read)?'/;

it('runs no file that starts Chromium two at a time', () => {
  const patterns = DRIVE_THE_CLI.map(globToRegExp);
  const twoAtATime = testFiles('test').filter((file) => file !== SELF && patterns.some((p) => p.test(file)));
  expect(twoAtATime.length).toBeGreaterThan(20);
  expect(
    twoAtATime.filter((file) => STARTS_CHROMIUM.test(readFileSync(path.join(REPO, file), 'utf8'))),
  ).toEqual([]);
});

it('reads the globs as the project does', () => {
  expect(globToRegExp('test/host/**/*.test.ts').test('test/host/plugin-host.test.ts')).toBe(true);
  expect(globToRegExp('test/host/**/*.test.ts').test('test/host/a/b.test.ts')).toBe(true);
  expect(globToRegExp('test/coherence*.test.ts').test('test/coherence-capture.property.test.ts')).toBe(true);
  expect(globToRegExp('test/coherence*.test.ts').test('test/ui/coherence.test.ts')).toBe(false);
  expect(globToRegExp('test/workspace.e2e.test.ts').test('test/workspaceXe2e.test.ts')).toBe(false);
});
