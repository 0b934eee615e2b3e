import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable, LogLevel } from '@vmark/sdk';
import { z } from '@vmark/sdk';
import { type LogHub, type LogRecord, STDERR_LEVEL } from '../log/log-hub.js';
import { isAtLeast, isLogLevel, LOG_LEVELS } from '../log/log-levels.js';
import { currentCall } from './call-scope.js';

/**
 * A client that set no level is told what the person's terminal shows (MCP names no default;
 * the SDK's own filter would send everything, `debug` included).
 */
export const DEFAULT_CLIENT_LEVEL: LogLevel = STDERR_LEVEL;

/**
 * `logging/setLevel` with any level: one MCP does not name is refused here as invalid params
 * (-32602), where the SDK's own schema would fail the request as an internal error.
 */
const SetLevelRequest = z.object({
  method: z.literal('logging/setLevel'),
  params: z.looseObject({ level: z.unknown() }).optional(),
});

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
  server.setRequestHandler(SetLevelRequest, async (request, extra) => {
    const asked = request.params?.level;
    if (!isLogLevel(asked))
      throw new McpError(ErrorCode.InvalidParams, `level must be one of: ${LOG_LEVELS.join(', ')}`);
    level = asked;
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
