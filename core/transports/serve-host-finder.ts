import http from 'node:http';
import { listRunningHosts, type ServeAnnouncement } from '../control/host-file.js';

/** A running `vmark serve` of this `VMARK_HOME` that answered on its MCP endpoint. */
export interface ServeHost extends ServeAnnouncement {
  readonly pid: number;
}

/** A host that does not answer this fast is treated as not running: the client must not hang on it. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * The newest `vmark serve` of `home` whose process lives and whose endpoint
 * answers with its token, or null. Host files of dead processes are dropped by
 * `listRunningHosts`; a live process that does not answer is passed over.
 */
export async function findServeHost(home: string): Promise<ServeHost | null> {
  const hosts = await listRunningHosts(home);
  for (const host of hosts.reverse()) {
    if (host.serve && (await endpointAnswers(host.serve))) return { pid: host.pid, ...host.serve };
  }
  return null;
}

/**
 * A GET without a session, with the token: our endpoint answers 400 ("no MCP
 * session") only after the token was accepted, so that answer proves both.
 */
function endpointAnswers(serve: ServeAnnouncement): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request(
      serve.mcpUrl,
      {
        method: 'GET',
        headers: { authorization: `Bearer ${serve.token}`, accept: 'text/event-stream' },
        agent: false,
        timeout: PROBE_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode === 400);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
    request.end();
  });
}
