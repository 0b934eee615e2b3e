/**
 * How a local Chromium is started. The flags keep it quiet on a closed network (no background
 * requests, no component updates, no sync) and keep its traffic inside the network guard: no
 * QUIC, no WebRTC outside the proxy, no DNS prefetch (the guard resolves names itself). As root
 * Chromium refuses to run without `--no-sandbox`; it is passed only then.
 *
 * No `--disable-features` here: Chromium keeps only the last one given, and Playwright's own
 * (network time, AI-mode and search preconnects to Google at startup, media router,
 * optimization hints, …) must stay in force.
 */
export function chromiumArgs(options: { readonly asRoot: boolean }): string[] {
  return [
    ...(options.asRoot ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--dns-prefetch-disable',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

/** Every request through the proxy, loopback included (Chromium bypasses it for localhost otherwise). */
export const PROXY_BYPASS = '<-loopback>';
