/**
 * Whether the browser shows its windows (issue 13): headless under `vmark mcp`, where nobody
 * watches; headed in the editor's host when the machine has a display, so that a person sees
 * what the AI does. `VMARK_BROWSER_HEADED=1` asks for windows anywhere, `=0` for none.
 */
export function headedBrowser(
  env: NodeJS.ProcessEnv,
  editor: boolean,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.VMARK_BROWSER_HEADED === '1') return true;
  if (env.VMARK_BROWSER_HEADED === '0') return false;
  return editor && hasDisplay(env, platform);
}

/** macOS and Windows always have one; elsewhere it is an X or Wayland display named in the environment. */
function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY) || Boolean(env.WAYLAND_DISPLAY);
}
