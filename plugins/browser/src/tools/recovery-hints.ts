/**
 * What a client is told when a browser result went over the 75,000-byte output bound
 * (vmark-notes §1.3: the `browserRead`, `browserQuery` and `browserConsole` hints).
 */

export const BROWSER_READ_RECOVERY =
  'the snapshot of this page exceeds the output budget — use `browser_read` {action: "query"} with a CSS ' +
  'selector to fetch only the elements you need.';

export const BROWSER_QUERY_RECOVERY =
  'tighten the CSS `selector` so it matches fewer elements, and drop any `fields` (attributes/box/styles) you ' +
  'do not need.';

export const BROWSER_CONSOLE_RECOVERY =
  'the captured console buffer is bigger than one response and `console` has no pagination, so there is no way ' +
  'to page to the rest. DO NOT call `browser` {action: "console_clear"} to get it: that returns the same ' +
  'oversized response AND discards every entry you never saw. Narrow the problem instead — reproduce the step ' +
  'you are debugging in a fresh tab so the buffer is small, or read the specific page state you need with ' +
  '`browser_read` {action: "query"}. Use `console_clear` only once you have decided the unread entries do not ' +
  'matter and you want the next call to show only new output.';
