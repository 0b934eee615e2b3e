/**
 * `execute_js` (vmark-notes §3.1): the escape hatch, as narrow as it can be. The script is an
 * async function body that returns a JSON-serializable value; it runs in the isolated world
 * (the DOM is shared, the page's JavaScript is not), after a person approved that exact script
 * for this call (operation `eval`, never a standing grant), and at most `EVAL_TIMEOUT_MS`. Its
 * result comes from the page and is marked untrusted.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError, z } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { approvePageChange } from './page-approval.js';

/** Scripts and injected CSS are bounded by their UTF-8 size (vmark-notes §1.1). */
export const MAX_SCRIPT_BYTES = 64 * 1024;
/** Under the 9 s bound of a call, so the answer is ours, not the client's timeout. */
export const EVAL_TIMEOUT_MS = 8000;

export const scriptArg = () =>
  z
    .string({ error: 'execute_js requires a non-empty `script` (an async function body that returns JSON)' })
    .refine((s) => s.trim() !== '', {
      error: 'execute_js requires a non-empty `script` (an async function body that returns JSON)',
    })
    .refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SCRIPT_BYTES, {
      error: `script must be at most ${MAX_SCRIPT_BYTES} bytes of UTF-8`,
    });

/** The script wrapped so that its value comes back as JSON text, or the error that stopped it. */
function wrapped(script: string): string {
  return `async function () {
  const value = await (async function () {
${script}
  }).call(undefined);
  try {
    return { ok: true, json: JSON.stringify(value === undefined ? null : value) ?? 'null' };
  } catch (error) {
    return { ok: false, error: 'the result is not JSON-serializable: ' + (error && error.message ? error.message : String(error)) };
  }
}`;
}

export async function executeJs(
  tab: BrowserTab,
  script: string,
  approvals: Approvals,
  call: ToolCall,
): Promise<{ result: unknown; untrusted: true; url: string; generation: number }> {
  await approvePageChange(approvals, call, {
    tab,
    operation: 'eval',
    what: `run this script:\n${script}`,
    noted: 'run a script',
    retry: { action: 'execute_js', tabId: tab.id },
  });
  const generation = tab.generation;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), EVAL_TIMEOUT_MS)),
  );
  let outcome: { ok: boolean; json?: string; error?: string } | 'timeout';
  try {
    outcome = await Promise.race([
      tab.world.evaluate<{ ok: boolean; json?: string; error?: string }>(wrapped(script)),
      timeout,
    ]);
  } catch (error) {
    throw new TokenError(
      'EVAL_FAILED',
      `the script threw: ${error instanceof Error ? error.message : String(error)}`,
      {
        tabId: tab.id,
      },
    );
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'timeout') {
    await tab.world.terminate();
    throw new TokenError(
      'EVAL_TIMEOUT',
      `the script did not finish within ${EVAL_TIMEOUT_MS} ms and was stopped`,
      {
        tabId: tab.id,
      },
    );
  }
  if (!outcome.ok)
    throw new TokenError('EVAL_FAILED', outcome.error ?? 'the script failed', { tabId: tab.id });
  return { result: JSON.parse(outcome.json ?? 'null') as unknown, untrusted: true, url: tab.url, generation };
}
