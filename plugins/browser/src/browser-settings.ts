/**
 * The browser's settings, declared in this plugin's manifest (shown with the plugin in
 * Settings) and read on every call, so a change applies to the next one.
 */
import { type Settings, TokenError, z } from '@vmark/sdk';
import type { Posture } from './engine/browser-engine.js';

export const ENABLED = 'browser.enabled';
export const POSTURE = 'browser.posture';
export const ALLOW_PRIVATE = 'browser.allowPrivateNetwork';

export class BrowserSettings {
  constructor(
    private readonly settings: Settings,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** @throws TokenError `BROWSER_DISABLED` when the person turned the browser off. */
  assertEnabled(): void {
    if (!this.settings.get(ENABLED, z.boolean(), true)) {
      throw new TokenError(
        'BROWSER_DISABLED',
        'the embedded browser is turned off in Settings (browser.enabled); ask the user to turn it on',
      );
    }
  }

  posture(): Posture {
    return this.settings.get(POSTURE, z.enum(['sandbox', 'shared']), 'sandbox');
  }

  /** The setting, or VMARK_BROWSER_ALLOW_PRIVATE=1 (for tests that serve pages on 127.0.0.1). */
  allowPrivateNetwork(): boolean {
    return (
      this.env.VMARK_BROWSER_ALLOW_PRIVATE === '1' || this.settings.get(ALLOW_PRIVATE, z.boolean(), false)
    );
  }
}
