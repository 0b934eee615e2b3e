import { vmarkHome } from '../composition/environment.js';
import { listRunningHosts, type RunningHost } from '../control/host-file.js';

/**
 * What each running host of this VMARK_HOME answers, for a listing command (`vmark approvals list`,
 * `grants`). With no host running, says so on stdout (`[]` for `--json`) and returns undefined.
 */
export async function askEveryHost<T>(
  json: boolean,
  ask: (host: RunningHost) => Promise<T>,
): Promise<{ host: RunningHost; answer: T }[] | undefined> {
  const home = vmarkHome();
  const hosts = await listRunningHosts(home);
  if (hosts.length === 0) {
    process.stdout.write(json ? '[]\n' : `no running vmark host (VMARK_HOME=${home})\n`);
    return undefined;
  }
  return Promise.all(hosts.map(async (host) => ({ host, answer: await ask(host) })));
}
