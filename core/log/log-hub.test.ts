import { LoggingLevelSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type LogRecord, LogHub } from './log-hub.js';
import { isAtLeast, LOG_LEVELS } from './log-levels.js';

function hub(): { hub: LogHub; lines: string[]; heard: LogRecord[] } {
  const lines: string[] = [];
  const heard: LogRecord[] = [];
  const log = new LogHub((line) => lines.push(line));
  log.subscribe((record) => heard.push(record));
  return { hub: log, lines, heard };
}

describe('log levels', () => {
  it('are MCP’s, in its order of severity', () => {
    expect(LOG_LEVELS).toEqual(LoggingLevelSchema.options);
  });

  it('let a threshold itself through, and what is more severe', () => {
    expect(isAtLeast('warning', 'warning')).toBe(true);
    expect(isAtLeast('emergency', 'debug')).toBe(true);
    expect(isAtLeast('notice', 'warning')).toBe(false);
    expect(isAtLeast('debug', 'info')).toBe(false);
  });
});

describe('LogHub', () => {
  it('writes the host’s own texts to stderr, and everything but debug', () => {
    const { hub: log, lines } = hub();
    log.log('checkpoints', 'error', 'could not record an AI edit checkpoint (ENOSPC): no space');
    log.scoped('coherence', 'coherence: ').log('warning', 'capture of a.md failed: held');
    log.log('documents', 'debug', 'a detail');
    log.log('documents', 'info', 'a fact');
    expect(lines).toEqual([
      'vmark: could not record an AI edit checkpoint (ENOSPC): no space',
      'vmark: coherence: capture of a.md failed: held',
      'vmark: a fact',
    ]);
  });

  it('hands every message to its listeners, debug included, with who said it and to whom', () => {
    const { hub: log, heard } = hub();
    log.scoped('greeter', 'greeter: ').log('debug', 'hello', { connectionId: 'conn-2' });
    log.log('plugins', 'error', 'plugin x: activation failed: boom');
    expect(heard).toEqual([
      { level: 'debug', logger: 'greeter', message: 'hello', connectionId: 'conn-2' },
      {
        level: 'error',
        logger: 'plugins',
        message: 'plugin x: activation failed: boom',
        connectionId: undefined,
      },
    ]);
  });

  it('keeps a listener that throws from silencing the others, and stops one that is disposed', () => {
    const log = new LogHub(() => undefined);
    const heard: string[] = [];
    log.subscribe(() => {
      throw new Error('closed');
    });
    const second = log.subscribe((record) => heard.push(record.message));
    log.log('documents', 'warning', 'one');
    second.dispose();
    log.log('documents', 'warning', 'two');
    expect(heard).toEqual(['one']);
  });

  it('keeps what is said host-wide while the host starts, the last 32 of it, and nothing after', () => {
    const log = new LogHub(() => undefined);
    for (let i = 0; i < 40; i++) log.log('plugins', 'error', `problem ${i}`);
    log.log('plugins', 'error', 'about one call', { connectionId: 'conn-1' });
    log.started();
    log.log('plugins', 'error', 'later');
    const kept = log.startupRecords().map((r) => r.message);
    expect(kept).toHaveLength(32);
    expect(kept[0]).toBe('problem 8');
    expect(kept.at(-1)).toBe('problem 39');
  });
});
