/** Pages for the workflow-run tests (served by page-server.ts under the names a.test and b.test). */
import type { PageServer } from './page-server.js';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** How many times the two-page form was submitted (its last page POSTed). */
export function submissions(server: PageServer): number {
  return server.hits.filter((hit) => hit.path === '/form/done').length;
}

export function serveWorkflowPages(server: PageServer): void {
  server.html(
    '/form/1',
    page(
      'Order, page 1',
      `<form method="post" action="/form/2"><label>Name <input name="name"></label><button>Next</button></form>`,
    ),
  );
  server.route('/form/2', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        'Order, page 2',
        `<form method="post" action="/form/done"><label>Email <input name="email"></label><button>Submit</button></form>`,
      ),
    );
  });
  server.route('/form/done', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      page(
        'Receipt',
        '<main><h1>Thank you</h1><p>Your order is on its way. We will write to you soon.</p></main>',
      ),
    );
  });
  server.html(
    '/login',
    page(
      'Sign in',
      `<form method="post" action="/signed-in"><label>Username <input name="user"></label>
      <label>Password <input name="password" type="password"></label><button>Sign in</button></form>`,
    ),
  );
  server.route('/signed-in', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page('Welcome', '<p>Signed in.</p>'));
  });
  const log = `<p id="log"></p>`;
  const logged = (id: string, name: string) =>
    `<button id="${id}" onclick="document.getElementById('log').textContent += '${id};'">${name}</button>`;
  server.html(
    '/overlay',
    page(
      'Cookies',
      `${log}${logged('buy', 'Buy now')}
      <div class="cmp-overlay" style="position:fixed;inset:0;background:rgba(0,0,0,.4)"><p>We use cookies.</p></div>`,
    ),
  );
  server.html('/two-deletes', page('Drafts', `${log}${logged('d1', 'Delete')} ${logged('d2', 'Delete')}`));
  server.html('/shop', page('Shop', `${log}${logged('buy', 'Buy')}`));
}
