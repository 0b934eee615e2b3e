/*
 * Core's folders in floors, lowest first (docs/architecture.md draws the map).
 * A folder imports only folders on lower floors; folders on one floor do not
 * import each other. The renderer is a program of its own: it sees only the
 * protocol and the fuzzy matcher it shares with the host. One table, read
 * by the lint rule and by the import-graph test.
 */
export const CORE_FLOORS = [
  ['tokens', 'protocol', 'matching'],
  ['vault'],
  ['net', 'log', 'hooks'],
  ['documents', 'approvals', 'principals', 'settings'],
  ['workbench', 'workspace-files'],
  ['history'],
  ['plugins'],
  ['control'],
  ['mcp'],
  ['composition'],
  ['transports'],
  ['shell/server'],
  ['shell/editor-host'],
  ['cli', 'shell/electron'],
  ['shell/renderer'],
];

/** The renderer runs in the page, not the host: of the host's folders it may use only these. */
export const RENDERER_SEES = new Set(['protocol', 'matching']);

const FLOOR = new Map(CORE_FLOORS.flatMap((folders, floor) => folders.map((folder) => [folder, floor])));

/** The floor folder of a path inside core (`rel` is relative to core/, with `/`), or `null` for core's root files. */
export function coreFolder(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return null;
  return parts[0] === 'shell' && parts.length > 2 ? `shell/${parts[1]}` : parts[0];
}

/**
 * Why `from` (a folder of core) may not import `to`, or `null` when it may.
 * Core's root files (`index.ts`) are its public face and may import any floor.
 */
export function floorViolation(from, to) {
  if (from === null || to === null || from === to) return null;
  const a = FLOOR.get(from);
  const b = FLOOR.get(to);
  if (a === undefined) return `core/${from}/ is on no floor: add it to eslint/core-floors.js`;
  if (b === undefined) return `core/${to}/ is on no floor: add it to eslint/core-floors.js`;
  if (from === 'shell/renderer') {
    return RENDERER_SEES.has(to)
      ? null
      : `the renderer sees only ${[...RENDERER_SEES].join(', ')}, not core/${to}/`;
  }
  if (to === 'shell/renderer') return `core/${from}/ may not import the renderer, which runs in the page`;
  if (a > b) return null;
  return a === b
    ? `core/${from}/ and core/${to}/ share a floor and do not import each other`
    : `core/${from}/ (floor ${a}) may not import core/${to}/ (floor ${b}), which lies above it`;
}
