/** The pages the perception tests read (served by fixture-server.ts). */
import type { Fixture } from './fixture-server.js';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

export const FORM = page(
  'Sign up',
  `<header><nav aria-label="Main"><a href="/">Home</a> <a href="/about">About us</a></nav></header>
  <main>
    <h1>Create an account</h1>
    <p>Fill in the form below to create your account. It takes a minute.</p>
    <form>
      <label>Email <input id="email" type="email"></label>
      <label>Password <input id="password" type="password"></label>
      <label><input id="news" type="checkbox" checked> Send me news</label>
      <fieldset><legend>Plan</legend>
        <label><input type="radio" name="plan" value="free" checked> Free</label>
        <label><input type="radio" name="plan" value="pro"> Pro</label>
      </fieldset>
      <label>Country <select id="country"><option>Norway</option><option selected>Japan</option></select></label>
      <label>About you <textarea id="bio"></textarea></label>
      <label>Photo <input id="photo" type="file"></label>
      <button id="submit" type="submit">Create account</button>
      <button id="later" type="button" disabled>Later</button>
    </form>
    <h2>Questions?</h2>
    <a id="plain-a">Contact us</a>
    <span id="focusable" tabindex="0">Help</span>
    <div id="role-button" role="button">Chat</div>
    <div aria-hidden="true"><button id="hidden-from-tree">Hidden from the tree</button></div>
  </main>`,
);

export const SPA = page(
  'SPA',
  `<h1 id="title">Inbox</h1><button id="next" onclick="history.pushState({}, '', '/spa/2'); document.getElementById('title').textContent = 'Message'">Open message</button>`,
);

export const FRAMES = ({ b }: { b: string }) =>
  page(
    'Frames',
    `<h1>Frames</h1>
    <iframe id="same" title="Same origin" src="/child?who=same"></iframe>
    <iframe id="cross" title="Cross origin" src="${b}/child"></iframe>
    <button id="after">After the frames</button>`,
  );

export const CHILD = page(
  'Child',
  `<button id="child-button">Inside the frame</button><a href="/elsewhere">Frame link</a><script>console.log('from the frame')</script>`,
);

export const SHADOW = page(
  'Shadow',
  `<div id="open-host"></div><div id="closed-host"></div><button id="light">Light button</button>
  <script>
    document.getElementById('open-host').attachShadow({ mode: 'open' }).innerHTML =
      '<button id="in-open">Open shadow button</button><a>Open shadow anchor</a>';
    window.closedRoot = document.getElementById('closed-host').attachShadow({ mode: 'closed' });
    window.closedRoot.innerHTML = '<button id="in-closed">Closed shadow button</button>';
  </script>`,
);

/** 10,000 rows of a table: 70,000 elements, the accessibility tree's slowest case. */
export const HUGE = page(
  'Huge',
  `<h1>Huge</h1><table id="rows"></table><script>
    const rows = [];
    for (let i = 0; i < 10000; i++)
      rows.push('<tr><td>Row ' + i + '</td><td><a href="#' + i + '">Link ' + i + '</a></td><td>c</td><td><button>Act ' + i + '</button></td></tr>');
    document.getElementById('rows').innerHTML = rows.join('');
  </script>`,
);

/** A page that tries to read or poison the isolated world, and to spoof perception. */
export const POISONED = page(
  'Poisoned',
  `<h1>Poisoned</h1><button id="real">Real button</button><p class="note">Plain text</p>
  <script>
    console.error('logged before the poison');
    const noop = () => [];
    Array.prototype.map = noop; Array.prototype.filter = noop; Array.prototype.push = () => 0;
    Array.prototype.forEach = () => {}; Array.prototype.includes = () => false; Array.prototype.slice = noop;
    Array.from = noop; Object.keys = noop; Object.entries = noop; Object.freeze = (x) => x;
    JSON.stringify = () => '"poisoned"'; JSON.parse = () => ({ poisoned: true });
    String.prototype.replace = () => 'poisoned'; String.prototype.trim = () => 'poisoned';
    String.prototype.toLowerCase = () => 'poisoned';
    Document.prototype.querySelectorAll = () => []; Document.prototype.querySelector = () => null;
    Document.prototype.getElementsByTagName = () => [];
    Element.prototype.getAttribute = () => 'poisoned'; Element.prototype.matches = () => false;
    Element.prototype.getBoundingClientRect = () => ({ width: 0, height: 0 });
    Element.prototype.checkVisibility = () => false;
    Node.prototype.compareDocumentPosition = () => 0;
    window.WeakMap = function () { throw new Error('no WeakMap'); };
    window.Map = function () { throw new Error('no Map'); };
    window.WeakRef = function () { throw new Error('no WeakRef'); };
    window.MutationObserver = function () { throw new Error('no MutationObserver'); };
    Object.defineProperty(window, '__vmark', { get() { document.title = 'poisoned: read __vmark'; return {}; } });
    Object.defineProperty(Object.prototype, 'entries', { get() { return [{ level: 'log', text: 'forged' }]; } });
    EventTarget.prototype.dispatchEvent = () => true;
    document.body.setAttribute('data-poisoned', String(document.querySelectorAll('button').length === 0 && JSON.stringify({}) === '"poisoned"'));
  </script>`,
);

export const CONSOLE = page(
  'Console',
  `<h1>Console</h1><iframe src="/child"></iframe><script>
    console.log('a log', { answer: 42 }, [1, 2]);
    console.info('an info');
    console.warn('a warning');
    console.debug('a debug');
    console.error(new Error('an error object'));
    console.log('x'.repeat(100000));
    setTimeout(() => { throw new TypeError('thrown later'); }, 0);
    Promise.reject(new Error('nobody caught this'));
  </script>`,
);

export const FLOOD = page(
  'Flood',
  `<h1>Flood</h1><script>for (let i = 0; i < 10000; i++) console.log('line ' + i);</script>`,
);

/** More console text than one answer holds: 300 entries of 3,000 characters. */
export const LOUD = page(
  'Loud',
  `<h1>Loud</h1><script>for (let i = 0; i < 300; i++) console.log(i + ' ' + 'y'.repeat(3000));</script>`,
);

export const QUERY = page(
  'Query',
  `<ul>${Array.from({ length: 60 }, (_, i) => `<li class="item" data-i="${i}" style="color: rgb(255, 0, 0)">Item ${i}</li>`).join('')}</ul>
  <p id="long">${'word '.repeat(300)}</p>`,
);

export const LATER = page(
  'Later',
  `<h1>Waiting</h1><div id="box" hidden><button id="late">Appeared</button></div>
  <script>
    setTimeout(() => { document.getElementById('box').hidden = false; }, 400);
    setTimeout(() => { const p = document.createElement('p'); p.textContent = 'All done now'; document.body.append(p); }, 600);
  </script>`,
);

export const NOISE = page(
  'Noise',
  `<canvas id="c" width="1280" height="720"></canvas><script>
    const c = document.getElementById('c').getContext('2d');
    const image = c.createImageData(1280, 720);
    let seed = 7;
    for (let i = 0; i < image.data.length; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; image.data[i] = i % 4 === 3 ? 255 : seed & 255; }
    c.putImageData(image, 0, 0);
  </script>`,
);

/** A page the cache test changes in every way that has no DOM mutation, and a few that have. */
export const CHANGING = ({ b }: { b: string }) =>
  page(
    'Changing',
    `<style id="sheet">#shy { color: black }</style>
    <h1>Changing</h1>
    <label><input id="box" type="checkbox" checked> Remember me</label>
    <div id="host"></div>
    <button id="shy">Shy button</button>
    <late-widget></late-widget>
    <iframe id="cross" title="Cross origin" src="${b}/child"></iframe>
    <script>
      document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<button id="inner">Inner</button>';
    </script>`,
  );

/**
 * More than the output bound holds: 760 rendered buttons with long names, between headings,
 * paragraphs and links that have no box (the accessibility tree keeps them; no one sees them).
 */
export const MANY_CONTROLS = page(
  'Many controls',
  Array.from(
    { length: 760 },
    (_, i) =>
      (i % 12 === 0
        ? `<h2>Section ${i / 12 + 1} of the long page</h2><p>Some words about section ${i / 12 + 1}, which a reader might like.</p>` +
          `<a href="/nowhere/${i}" style="display:inline-block;width:0;height:0;overflow:hidden">Unseen ${i}</a>`
        : '') + `<button id="c${i}">Control number ${String(i).padStart(4, '0')} of the many</button>`,
  ).join(''),
);

export const PAGES: Readonly<Record<string, Fixture>> = {
  '/many-controls': MANY_CONTROLS,
  '/changing': CHANGING,
  '/form': FORM,
  '/spa': SPA,
  '/frames': FRAMES,
  '/child': CHILD,
  '/shadow': SHADOW,
  '/huge': HUGE,
  '/poisoned': POISONED,
  '/console': CONSOLE,
  '/flood': FLOOD,
  '/loud': LOUD,
  '/query': QUERY,
  '/later': LATER,
  '/noise': NOISE,
};
