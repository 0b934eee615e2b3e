/*
 * The parts of Live mode that are large and rarely needed — KaTeX, Mermaid, the code languages —
 * are modules of their own beside the view's (built self-contained by rolldown.config.mjs), loaded
 * the first time a note needs them. Every URL of the page carries the launch token (ADR 20), and a
 * relative import would drop it, so the URL is made here: the module's own query, kept.
 */

const loading = new Map<string, Promise<unknown>>();

/** `./name.js` beside this module, with this module's `?token=…`. */
export function siblingUrl(name: string, base: string = import.meta.url): string {
  const url = new URL(`./${name}`, base);
  url.search = new URL(base).search;
  return url.href;
}

/** The module `name` beside this one, imported once however often it is asked for. */
export function loadSibling<T>(name: string): Promise<T> {
  let module = loading.get(name);
  if (module === undefined) {
    module = import(/* @vite-ignore */ siblingUrl(name));
    // A failed load (the host gone for a moment) is tried again next time.
    module.catch(() => loading.delete(name));
    loading.set(name, module);
  }
  return module as Promise<T>;
}
