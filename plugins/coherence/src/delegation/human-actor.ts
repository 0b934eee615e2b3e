/**
 * The id recorded for a person acting in a workspace (vmark-notes §7.3): `git config user.name`
 * there, else `$USER` / `$USERNAME`, else `unknown-human`.
 */
import { execFile } from 'node:child_process';

function gitUserName(root: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['config', 'user.name'], { cwd: root, timeout: 5000 }, (error, stdout) => {
      const name = error ? '' : stdout.trim();
      resolve(name === '' ? null : name);
    });
  });
}

export async function humanActorId(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return (await gitUserName(root)) ?? (env.USER || env.USERNAME || 'unknown-human');
}
