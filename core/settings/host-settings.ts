import type { SettingDeclaration } from './setting-declaration.js';

/**
 * Settings of the host itself, shown under "General": they belong to no plugin
 * (the browser posture is read by whichever plugin drives a browser, DESIGN §7).
 */
export const HOST_SETTINGS: Readonly<Record<string, SettingDeclaration>> = Object.freeze({
  'browser.allowPrivateNetwork': {
    type: 'boolean',
    default: false,
    title: 'Allow the browser to reach private networks',
    description:
      'Lets browser tools open loopback and private-network addresses (localhost, 127.0.0.1, 192.168.…, 10.…). ' +
      'The environment variable VMARK_BROWSER_ALLOW_PRIVATE=1 turns it on too.',
    caution:
      'An AI could then read pages of services on this machine or your local network, such as routers and ' +
      'development servers, that are not meant to be public.',
  },
});
