import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type RequestId, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable, LogLevel } from '@vmark/sdk';
import { type LogHub, type LogRecord, STDERR_LEVEL } from '../log/log-hub.js';
import { isAtLeast } from '../log/log-levels.js';
import { currentCall } from './call-scope.js';

/**
 * A client that set no level is told what the person's terminal shows (MCP names no default;
 * the SDK's own filter would send everything, `debug` included).
 */
export const DEFAULT_CLIENT_LEVEL: LogLevel = STDERR_LEVEL;

/**
 * The MCP logging capability of one session: answers `logging/setLevel` and sends the host's
 * messages at or above that level as `notifications/message` — host-wide ones, and those about
 * this connection's own calls. A message said during one of this connection's calls rides that
 * call's response; any other goes to the session's notification stream. The first `setLevel`
 * is answered after what went wrong while the host started (at or above the level just set),
 * which was said before any client could listen.
 */
export function attachSessionLog(server: Server, hub: LogHub, connectionId: string): Disposable {
  let level = DEFAULT_CLIENT_LEVEL;
  let toldStartup = false;
  const send = (record: LogRecord, relatedRequestId?: RequestId): Promise<void> =>
    server
      .notification(
        {
          method: 'notifications/message',
          params: { level: record.level, logger: record.logger, data: record.message },
        },
        relatedRequestId === undefined ? undefined : { relatedRequestId },
      )
      // A client gone meanwhile is the transport's to report.
      .catch(() => undefined);

  // Replaces the SDK's own handler (which the capability installs) with one that keeps the level here.
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    level = request.params.level;
    if (!toldStartup) {
      toldStartup = true;
      const earlier = hub.startupRecords().filter((record) => isAtLeast(record.level, level));
      await Promise.all(earlier.map((record) => send(record, extra.requestId)));
    }
    return {};
  });

  return hub.subscribe((record) => {
    if (!isAtLeast(record.level, level)) return;
    if (record.connectionId !== undefined && record.connectionId !== connectionId) return;
    const call = currentCall();
    void send(record, call?.connectionId === connectionId ? call.requestId : undefined);
  });
}
