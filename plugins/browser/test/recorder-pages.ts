/**
 * Fixture pages for the recorder's tests (recorder.test.ts, record-tool.test.ts): a sign-up
 * form with every kind of field, pages that navigate by themselves, a page that forges events,
 * one that echoes what is typed into a button's name, and one to click many times.
 */
export const RECORDER_PAGES: Readonly<Record<string, string>> = {
  '/form': `<!doctype html><title>Sign up</title>
<form action="/done" method="get">
  <label>Full name <input name="fullname"></label>
  <label>Search <input type="search" name="q"></label>
  <label>Password <input type="password" name="pw"></label>
  <label>Code <input name="code" autocomplete="one-time-code"></label>
  <label>PIN <input name="pin" inputmode="numeric"></label>
  <label for="bio">About you</label><textarea id="bio" name="bio"></textarea>
  <div contenteditable="true" aria-label="Notes" id="notes"></div>
  <label><input type="checkbox" name="terms"> I agree</label>
  <button type="submit">Create account</button>
</form>`,
  '/done': '<!doctype html><title>Done</title><h1>Welcome</h1>',
  '/self-navigating': `<!doctype html><title>Self</title>
<button id="next" onclick="location.href = '/landing?token=from-script'">Next</button>
<button id="push" onclick="history.pushState({}, '', '/pushed?token=from-push')">Push</button>`,
  '/refresh': `<!doctype html><title>Refresh</title><meta http-equiv="refresh" content="0;url=/landing?token=from-meta">`,
  '/landing': '<!doctype html><title>Landing</title><p>landed</p>',
  '/forged': `<!doctype html><title>Forged</title>
<button id="b">Real</button><input id="f" aria-label="Field">
<script>
  const forge = () => {
    document.getElementById('b').click();
    document.getElementById('b').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const f = document.getElementById('f');
    f.dispatchEvent(new Event('input', { bubbles: true }));
    f.dispatchEvent(new Event('change', { bubbles: true }));
  };
  forge();
  document.addEventListener('forge', forge);
</script>`,
  '/echo': `<!doctype html><title>Echo</title>
<input id="q" aria-label="Query">
<button id="go">Search</button>
<div id="menu" style="cursor: pointer" onclick="void 0">Open menu</div>
<script>
  document.getElementById('q').addEventListener('input', (e) => {
    document.getElementById('go').textContent = 'Search for “' + e.target.value + '”';
  });
</script>`,
  '/clicks':
    '<!doctype html><title>Clicks</title><button id="b" style="width:200px;height:50px">Tap</button>',
};
