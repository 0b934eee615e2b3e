import { describe, expect, it } from 'vitest';
import { KeyedQueue, SerialQueue } from './serial-queue.js';

/** A task that runs until `finish` is called, logging its start and end. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const task = async () => {
    log.push(`${name} starts`);
    await done;
    log.push(`${name} ends`);
    return name;
  };
  return { task, finish };
}

describe('SerialQueue', () => {
  it('runs one task at a time, in the order given', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const first = queue.run(a.task);
    const second = queue.run(b.task);
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    b.finish();
    a.finish();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
  });

  it('gives a failure to its own caller and goes on with the next task', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('no')));
    const thrown = queue.run(() => {
      throw new Error('thrown');
    });
    const next = queue.run(() => 'next');
    await expect(failed).rejects.toThrow('no');
    await expect(thrown).rejects.toThrow('thrown');
    expect(await next).toBe('next');
  });

  it('is idle once every task queued so far has settled, and idle never rejects', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const a = gate(log, 'a');
    void queue.run(a.task);
    const failing = queue.run(() => Promise.reject(new Error('no')));
    failing.catch(() => undefined);
    const idle = queue.idle().then(() => log.push('idle'));
    a.finish();
    await idle;
    expect(log).toEqual(['a starts', 'a ends', 'idle']);
  });
});

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, and of different keys side by side', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const b1 = gate(log, 'b1');
    const runs = [queue.run('a', a1.task), queue.run('a', a2.task), queue.run('b', b1.task)];
    await Promise.resolve();
    expect(log).toEqual(['a1 starts', 'b1 starts']);
    a1.finish();
    a2.finish();
    b1.finish();
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 starts')).toBeGreaterThan(log.indexOf('a1 ends'));
  });

  it('goes on after a failure and forgets keys with nothing queued', async () => {
    const queue = new KeyedQueue();
    await expect(queue.run('a', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await queue.run('a', () => 'after')).toBe('after');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});
