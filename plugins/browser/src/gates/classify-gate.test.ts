import { describe, expect, it } from 'vitest';
import { classifyGate, GATE_HINTS, type GateSignals } from './classify-gate.js';

const page = (over: Partial<GateSignals>): GateSignals => ({
  url: 'https://shop.example/item',
  title: 'Item',
  textHead: 'Some ordinary content.',
  challengeWidget: false,
  passwordField: false,
  ...over,
});

/** Text of `n` characters that says nothing a rule reads. */
const filler = (n: number) => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);

describe('classifyGate', () => {
  it('answers with the original hints, verbatim', () => {
    expect(GATE_HINTS).toEqual({
      challenge:
        'the page is showing a human-verification challenge — tell the user and wait; do not attempt to solve or bypass it',
      consent:
        "a consent interstitial is blocking the content — ask the user how to proceed; with their agreement the dialog's buttons are ordinary act targets",
      'login-required':
        'the page wants the user to sign in — stop and ask them; a previously saved session (session_load) may help if they approve it',
      'rate-limited':
        'the site is rate-limiting — stop retrying and tell the user; more attempts make it worse',
    });
    expect(classifyGate(page({ challengeWidget: true }))).toEqual({
      kind: 'challenge',
      hint: GATE_HINTS.challenge,
    });
  });

  describe('challenge', () => {
    it('is a rendered widget, whatever the page says', () => {
      expect(classifyGate(page({ challengeWidget: true, textHead: filler(4000) }))?.kind).toBe('challenge');
    });

    it.each([
      ['Just a moment...', 'Verify you are human by completing the action below.'],
      ['Attention Required! | Cloudflare', 'Please complete the security check to access the site.'],
      ['Are you a robot?', "Please confirm: I'm not a robot"],
      ['Checking your browser', 'Press and hold the button'],
      ['Verify you are a person', 'Our systems have detected unusual traffic from your network.'],
      ['Just a moment', 'Sorry, we received automated queries from your computer.'],
    ])('is a challenge title with challenge text on a short page: %s', (title, textHead) => {
      expect(classifyGate(page({ title, textHead }))?.kind).toBe('challenge');
    });

    it('needs the title, the text and a short page, all three', () => {
      const textHead = 'Verify that you are human.';
      expect(classifyGate(page({ title: 'Just a moment', textHead }))?.kind).toBe('challenge');
      expect(classifyGate(page({ title: 'Welcome', textHead }))).toBeNull();
      expect(classifyGate(page({ title: 'Just a moment', textHead: 'Loading your dashboard' }))).toBeNull();
      // "Terse" is fewer than 1500 characters once trimmed.
      const long = `${textHead} ${filler(1500 - textHead.length - 1)}`;
      expect(long.length).toBe(1500);
      expect(classifyGate(page({ title: 'Just a moment', textHead: long }))).toBeNull();
      expect(
        classifyGate(page({ title: 'Just a moment', textHead: `   ${long.slice(0, 1499)}   ` }))?.kind,
      ).toBe('challenge');
    });
  });

  describe('consent', () => {
    it('is a consent host or path with consent words', () => {
      expect(
        classifyGate(page({ url: 'https://consent.example.com/ml?continue=x', title: 'Before you continue' }))
          ?.kind,
      ).toBe('consent');
      expect(
        classifyGate(page({ url: 'https://news.example/consent/', textHead: 'We use cookies. Accept all?' }))
          ?.kind,
      ).toBe('consent');
      expect(
        classifyGate(page({ url: 'https://news.example/consent', textHead: filler(4000) + ' consent' })),
      ).toEqual({
        kind: 'consent',
        hint: GATE_HINTS.consent,
      });
    });

    it('needs both the place and the words', () => {
      expect(
        classifyGate(page({ url: 'https://news.example/article', title: 'Accept all cookies' })),
      ).toBeNull();
      expect(classifyGate(page({ url: 'https://consent.example.com/', title: 'Hello' }))).toBeNull();
      expect(
        classifyGate(page({ url: 'https://news.example/consenting-adults', title: 'consent' })),
      ).toBeNull();
      expect(classifyGate(page({ url: 'https://notconsent.example.com/', title: 'cookie' }))).toBeNull();
    });

    it('does not join the title and the text into a word neither has', () => {
      expect(
        classifyGate(page({ url: 'https://consent.example/', title: 'coo', textHead: 'kie jar' })),
      ).toBeNull();
    });
  });

  describe('login-required', () => {
    it('is a visible password field with a sign-in title or path', () => {
      for (const title of ['Sign in – Example', 'Log in', 'LOGIN', '登录', 'ログイン', 'Iniciar sesión']) {
        expect(classifyGate(page({ passwordField: true, title }))?.kind).toBe('login-required');
      }
      for (const path of ['/login', '/signin/', '/sign-in', '/account/log-in/step']) {
        expect(
          classifyGate(page({ passwordField: true, url: `https://example.com${path}`, title: 'Account' }))
            ?.kind,
        ).toBe('login-required');
      }
    });

    it('is nothing without the field, or with the field on another page', () => {
      expect(classifyGate(page({ title: 'Sign in', url: 'https://example.com/login' }))).toBeNull();
      expect(classifyGate(page({ passwordField: true, title: 'Change your settings' }))).toBeNull();
      expect(classifyGate(page({ passwordField: true, url: 'https://example.com/blogin' }))).toBeNull();
    });
  });

  describe('rate-limited', () => {
    it('is two of: a rate-limit title, rate-limit text saying try again, a 429 title — on a short page', () => {
      expect(
        classifyGate(page({ title: 'Too Many Requests', textHead: 'Please try again later.' })),
      ).toBeNull();
      expect(classifyGate(page({ title: '429 Too Many Requests', textHead: 'nginx' }))?.kind).toBe(
        'rate-limited',
      );
      expect(
        classifyGate(
          page({ title: 'Rate limit exceeded', textHead: 'You are rate-limited. Try again in 60 s.' }),
        )?.kind,
      ).toBe('rate-limited');
      expect(
        classifyGate(page({ title: 'Error 429', textHead: 'Too many requests. Please try again.' }))?.kind,
      ).toBe('rate-limited');
    });

    it('is no single signal, and no long page', () => {
      expect(classifyGate(page({ title: 'Error 429' }))).toBeNull();
      expect(classifyGate(page({ textHead: 'Too many requests, try again later' }))).toBeNull();
      expect(classifyGate(page({ title: 'Rate limit', textHead: 'rate limited' }))).toBeNull();
      expect(
        classifyGate(page({ title: '429 Too Many Requests', textHead: `Try again. ${filler(2000)}` })),
      ).toBeNull();
    });
  });

  describe('near misses that must not be classified', () => {
    it('a shop page showing "$429"', () => {
      expect(
        classifyGate(
          page({
            title: 'Noise-cancelling headphones – $429 – Example Shop',
            textHead:
              'Noise-cancelling headphones\n$429\nAdd to cart\nOnly 2 left. Out of stock? Try again tomorrow.',
          }),
        ),
      ).toBeNull();
    });

    it('a "Protected by Cloudflare" footer', () => {
      expect(
        classifyGate(
          page({ title: 'Our team', textHead: 'Meet the team.\n\nProtected by Cloudflare · Privacy' }),
        ),
      ).toBeNull();
    });

    it('an article about CAPTCHAs', () => {
      const article =
        'Are you a robot? Every "I\'m not a robot" box asks you to verify you are human. Press and hold, ' +
        'complete the security check, unusual traffic… ' +
        filler(3000);
      expect(
        classifyGate(page({ title: 'Are you a robot? A history of CAPTCHAs', textHead: article })),
      ).toBeNull();
    });

    it('a long page titled "Just a moment"', () => {
      expect(
        classifyGate(
          page({ title: 'Just a moment', textHead: `Verify you are human, she said. ${filler(3000)}` }),
        ),
      ).toBeNull();
    });
  });

  it('checks in order: a challenge before consent, consent before login, login before a rate limit', () => {
    const all = page({
      url: 'https://consent.example.com/login',
      title: 'Just a moment — sign in — 429 too many requests',
      textHead: 'Verify you are human. Accept all cookies. Too many requests, try again.',
      challengeWidget: true,
      passwordField: true,
    });
    expect(classifyGate(all)?.kind).toBe('challenge');
    expect(
      classifyGate({ ...all, challengeWidget: false, title: 'Sign in — 429 too many requests' })?.kind,
    ).toBe('consent');
    expect(
      classifyGate({
        ...all,
        challengeWidget: false,
        url: 'https://example.com/login',
        title: 'Sign in — 429 too many requests',
      })?.kind,
    ).toBe('login-required');
  });

  it('reads no URL rule from an unparseable URL', () => {
    expect(
      classifyGate(page({ url: 'not a url', title: 'Before you continue', passwordField: true })),
    ).toBeNull();
  });
});
