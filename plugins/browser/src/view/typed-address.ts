/**
 * An address the person typed in the editor (a tab view's address bar, the Browser panel): made
 * a URL — a bare name is an https address — and checked as any page's target is, before a tab
 * goes there.
 */
import { ArgumentError } from '@vmark/sdk';
import type { BrowserSettings } from '../browser-settings.js';
import type { Resolver } from '../guard/resolver.js';
import { checkTarget } from '../guard/target-policy.js';

export interface AddressServices {
  readonly resolver: Resolver;
  readonly settings: BrowserSettings;
}

/** @throws ArgumentError when pages may not reach it. */
export async function allowedTarget(typed: string, services: AddressServices): Promise<string> {
  const target = addressOf(typed);
  const verdict = await checkTarget(target, services.resolver, {
    allowPrivateNetwork: services.settings.allowPrivateNetwork(),
  });
  if (!verdict.allowed) throw new ArgumentError(`that page may not be opened: ${verdict.reason}`);
  return target;
}

function addressOf(typed: string): string {
  const trimmed = typed.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
}
