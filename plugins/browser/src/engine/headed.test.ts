import { describe, expect, it } from 'vitest';
import { headedBrowser } from './headed.js';

describe('headedBrowser', () => {
  it('is headless under vmark mcp, display or not', () => {
    expect(headedBrowser({ DISPLAY: ':0' }, false, 'linux')).toBe(false);
    expect(headedBrowser({}, false, 'darwin')).toBe(false);
  });

  it("is headed in the editor's host when the machine has a display", () => {
    expect(headedBrowser({ DISPLAY: ':0' }, true, 'linux')).toBe(true);
    expect(headedBrowser({ WAYLAND_DISPLAY: 'wayland-0' }, true, 'linux')).toBe(true);
    expect(headedBrowser({}, true, 'darwin')).toBe(true);
    expect(headedBrowser({}, true, 'win32')).toBe(true);
  });

  it("is headless in the editor's host on a machine without one (a server, CI)", () => {
    expect(headedBrowser({}, true, 'linux')).toBe(false);
    expect(headedBrowser({ DISPLAY: '' }, true, 'linux')).toBe(false);
  });

  it('does what VMARK_BROWSER_HEADED says, 1 or 0, wherever it runs', () => {
    expect(headedBrowser({ VMARK_BROWSER_HEADED: '1' }, false, 'linux')).toBe(true);
    expect(headedBrowser({ VMARK_BROWSER_HEADED: '0', DISPLAY: ':0' }, true, 'linux')).toBe(false);
  });
});
