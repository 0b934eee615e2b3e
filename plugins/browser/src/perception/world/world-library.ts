/**
 * vmark's library in each isolated world: evaluated once per world (each frame document), it
 * sets `globalThis.__vmark` there — a global of the world alone, which the page can neither
 * see nor replace — holding the refs of the document and the functions perception calls.
 * Its parts are installers in this folder, serialized with Function.prototype.toString.
 */
import { installAct, type WorldAct } from '../../acting/act-verify.js';
import { installConsole, type WorldConsole } from '../console/world-console.js';
import { installDom } from './world-dom.js';
import { installEpoch } from './world-epoch.js';
import { installNames } from './world-names.js';
import { installQuery, type WorldQuery } from './world-query.js';
import { installRefs, type WorldRefs } from './world-refs.js';
import { installSnapshot, type WorldSnapshot } from './world-snapshot.js';
import { installWait, type WorldWait } from './world-wait.js';

export interface WorldLibrary {
  readonly refs: WorldRefs;
  readonly snapshot: WorldSnapshot;
  readonly query: WorldQuery;
  readonly wait: WorldWait;
  readonly console: WorldConsole;
  /** `act`'s checks and watches (acting/act-verify.ts). */
  readonly act: WorldAct;
}

export const WORLD_LIBRARY_SOURCE = `globalThis.__vmark = (() => {
  const dom = (${installDom.toString()})();
  const refs = (${installRefs.toString()})();
  const names = (${installNames.toString()})(dom);
  const epoch = (${installEpoch.toString()})(dom);
  return Object.freeze({
    refs,
    snapshot: (${installSnapshot.toString()})(dom, names, refs, epoch),
    query: (${installQuery.toString()})(dom, refs),
    wait: (${installWait.toString()})(dom, refs),
    console: (${installConsole.toString()})(),
    act: (${installAct.toString()})(dom, refs),
  });
})();`;

/** A CDP function declaration calling `module.method` of the library with the call's arguments. */
export function libraryCall(module: keyof WorldLibrary, method: string): string {
  return `function (...args) { return globalThis.__vmark.${module}.${method}(...args); }`;
}
