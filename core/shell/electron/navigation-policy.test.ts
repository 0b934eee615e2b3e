import { describe, expect, it } from 'vitest';
import { navigationVerdict } from './navigation-policy.js';

const ui = 'http://127.0.0.1:4680';

describe('navigationVerdict', () => {
  it('keeps the UI origin in the window', () => {
    expect(navigationVerdict(`${ui}/?token=abc`, ui)).toBe('stay');
    expect(navigationVerdict(`${ui}/assets/renderer.js`, ui)).toBe('stay');
  });

  it('sends web and mail links to the system browser, other loopback ports included', () => {
    expect(navigationVerdict('https://example.com/a?b', ui)).toBe('external');
    expect(navigationVerdict('http://127.0.0.1:9999/', ui)).toBe('external');
    expect(navigationVerdict('http://localhost:4680/', ui)).toBe('external');
    expect(navigationVerdict('mailto:someone@example.com', ui)).toBe('external');
  });

  it('refuses other schemes and unparsable URLs', () => {
    for (const target of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'vscode://x',
      'not a url',
    ]) {
      expect(navigationVerdict(target, ui)).toBe('refuse');
    }
  });
});
