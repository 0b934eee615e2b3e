import { App } from './app.js';
import { Connection } from './connection.js';
import { findShell } from './shell.js';

/* The renderer's entry: find the page's regions, connect to the host, start the app. */
const shell = findShell(document);
Connection.open(window.location).then(
  (connection) => new App(shell, connection),
  (error: unknown) => {
    shell.root.classList.add('is-disconnected');
    shell.status.textContent = error instanceof Error ? error.message : String(error);
  },
);
