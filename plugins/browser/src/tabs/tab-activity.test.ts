import { describe, expect, it } from 'vitest';
import { describeAct, MAX_TEXT, type Shot, TabActivity } from './tab-activity.js';

const note = (what: string) => ({ kind: 'act' as const, what, outcome: 'done', url: 'https://a.test/' });

/** Pictures taken on demand: each `shoot` waits until the test hands it its shot. */
function camera() {
  const asked: Array<(shot: Shot) => void> = [];
  return {
    shoot: () => new Promise<Shot>((resolve) => asked.push(resolve)),
    get waiting() {
      return asked.length;
    },
    give: (shot: Shot) => asked.shift()!(shot),
  };
}

const shot = (bytes: string | number, generation: number | null = 1): Shot => ({
  picture: typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.alloc(bytes),
  generation,
});

/** Lets the activity's picture loop take its next turn. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('TabActivity', () => {
  it('lists an entry at once with its picture pending, and attaches the picture when it comes', async () => {
    const activity = new TabActivity();
    const cam = camera();
    const entry = activity.add(note('click button “A”'), { generation: 1, at: 5 });
    const bare = activity.add(note('no picture wanted'));
    expect(activity.list().map((e) => [e.id, e.picture])).toEqual([
      [bare.id, 'none'],
      [entry.id, 'pending'],
    ]);
    const done = activity.takePictures(cam.shoot);
    cam.give(shot('one'));
    await done;
    expect(activity.list().map((e) => e.picture)).toEqual(['none', 'ready']);
    expect(activity.picture(entry.id)?.toString()).toBe('one');
    expect(activity.picture(bare.id)).toBeNull();
    expect(activity.picture(999)).toBeNull();
  });

  it('takes one picture at a time, each for the entries noted before it began, in order', async () => {
    const activity = new TabActivity();
    const cam = camera();
    const a = activity.add(note('a'), { generation: 1 });
    const first = activity.takePictures(cam.shoot);
    const b = activity.add(note('b'), { generation: 1 });
    const c = activity.add(note('c'), { generation: 1 });
    // A second call while the first picture is taken joins it: still one picture in flight.
    expect(activity.takePictures(cam.shoot)).toBe(first);
    expect(cam.waiting).toBe(1);
    cam.give(shot('after a'));
    await turn();
    // b and c came while a's picture was taken: that picture may show a state before them.
    expect(activity.list().map((e) => [e.what, e.picture])).toEqual([
      ['c', 'pending'],
      ['b', 'pending'],
      ['a', 'ready'],
    ]);
    expect(cam.waiting).toBe(1);
    cam.give(shot('after c'));
    await first;
    expect([a, b, c].map((e) => activity.picture(e.id)?.toString())).toEqual([
      'after a',
      'after c',
      'after c',
    ]);
    await activity.settled();
  });

  it('gives no picture to an entry whose page navigated before its picture, or when none could be taken', async () => {
    const activity = new TabActivity();
    const cam = camera();
    const before = activity.add(note('on page 1'), { generation: 1 });
    const after = activity.add(note('on page 2'), { generation: 2 });
    const done = activity.takePictures(cam.shoot);
    cam.give(shot('page 2', 2));
    await done;
    expect(activity.picture(before.id)).toBeNull();
    expect(activity.list().map((e) => e.picture)).toEqual(['ready', 'none']);
    expect(activity.picture(after.id)?.toString()).toBe('page 2');
    const failed = activity.add(note('page changed while pictured'), { generation: 2 });
    const again = activity.takePictures(cam.shoot);
    cam.give({ picture: null, generation: null });
    await again;
    expect(activity.list().find((e) => e.id === failed.id)?.picture).toBe('none');
    const rejected = activity.add(note('the page is gone'), { generation: 2 });
    await activity.takePictures(() => Promise.reject(new Error('Target closed')));
    expect(activity.list().find((e) => e.id === rejected.id)?.picture).toBe('none');
  });

  it('keeps at most its bound of entries, dropping the oldest with their pictures', async () => {
    const activity = new TabActivity({ entries: 3, pictureBytes: 1000 });
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      ids.push(activity.add(note(`act ${n}`), { generation: 1 }).id);
      await activity.takePictures(() => Promise.resolve(shot(10)));
    }
    expect(activity.list().map((entry) => entry.what)).toEqual(['act 5', 'act 4', 'act 3']);
    expect(activity.picture(ids[0]!)).toBeNull();
    expect(activity.pictureBytes).toBe(30);
  });

  it('drops the oldest pictures past its byte bound, keeping their entries, and never keeps an oversize one', async () => {
    const activity = new TabActivity({ entries: 10, pictureBytes: 25 });
    const added = [];
    for (const what of ['a', 'b', 'c']) {
      added.push(activity.add(note(what), { generation: 1 }));
      await activity.takePictures(() => Promise.resolve(shot(10)));
    }
    expect(added.map((entry) => activity.picture(entry.id) !== null)).toEqual([false, true, true]);
    expect(activity.list().map((entry) => entry.picture)).toEqual(['ready', 'ready', 'none']);
    expect(activity.pictureBytes).toBe(20);
    const huge = activity.add(note('huge'), { generation: 1 });
    await activity.takePictures(() => Promise.resolve(shot(26)));
    expect(activity.picture(huge.id)).toBeNull();
    expect(activity.list()).toHaveLength(4);
    expect(activity.pictureBytes).toBe(20);
  });

  it('bounds what an entry says, and says an answer with a key once', () => {
    const activity = new TabActivity();
    const long = activity.add(note('x'.repeat(10_000)));
    expect([...long.what]).toHaveLength(MAX_TEXT);
    expect(long.what.endsWith('…')).toBe(true);
    const first = activity.add(note('asked'), { key: 'approval r1 denied' });
    expect(activity.add(note('asked'), { key: 'approval r1 denied' })).toBe(first);
    activity.add(note('asked'), { key: 'approval r1 allowed once' });
    expect(activity.list()).toHaveLength(3);
  });

  it('tells its listeners of each entry and each picture, until they stop listening', async () => {
    const activity = new TabActivity();
    let told = 0;
    const stop = activity.onChanged(() => told++);
    activity.add(note('a'), { generation: 1 });
    await activity.takePictures(() => Promise.resolve(shot('a')));
    expect(told).toBe(2);
    stop();
    activity.add(note('b'));
    expect(told).toBe(2);
  });
});

describe('describeAct', () => {
  it('names the field typed into, never the text', () => {
    const text = 'hunter2-secret';
    const what = describeAct({
      operation: 'type',
      target: { kind: 'role', role: 'textbox', name: 'Password' },
      text,
    });
    expect(what).toBe('type into textbox “Password”');
    expect(what).not.toContain(text);
  });

  it('says what a click, a key and a scroll were done on', () => {
    expect(describeAct({ operation: 'click', target: { kind: 'role', role: 'button', name: 'Add' } })).toBe(
      'click button “Add”',
    );
    expect(describeAct({ operation: 'click', target: { kind: 'ref', ref: 'e4' } })).toBe('click ref e4');
    expect(describeAct({ operation: 'scroll', target: null, dy: 300 })).toBe('scroll the page');
  });
});
