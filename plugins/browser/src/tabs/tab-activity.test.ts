import { describe, expect, it } from 'vitest';
import { describeAct, TabActivity } from './tab-activity.js';

const note = (what: string) => ({ kind: 'act' as const, what, outcome: 'done', url: 'https://a.test/' });

describe('TabActivity', () => {
  it('lists entries newest first, each with its picture', () => {
    const activity = new TabActivity();
    const first = activity.add(note('click button “A”'), Buffer.from('one'), 1);
    const second = activity.add(note('click button “B”'), null, 2);
    expect(activity.list().map((entry) => [entry.id, entry.hasPicture])).toEqual([
      [second.id, false],
      [first.id, true],
    ]);
    expect(activity.picture(first.id)?.toString()).toBe('one');
    expect(activity.picture(second.id)).toBeNull();
    expect(activity.picture(999)).toBeNull();
  });

  it('keeps at most its bound of entries, dropping the oldest with their pictures', () => {
    const activity = new TabActivity({ entries: 3, pictureBytes: 1000 });
    const ids = [1, 2, 3, 4, 5].map((n) => activity.add(note(`act ${n}`), Buffer.alloc(10), n).id);
    expect(activity.list().map((entry) => entry.what)).toEqual(['act 5', 'act 4', 'act 3']);
    expect(activity.picture(ids[0]!)).toBeNull();
    expect(activity.pictureBytes).toBe(30);
  });

  it('drops the oldest pictures past its byte bound, keeping their entries, and never keeps an oversize one', () => {
    const activity = new TabActivity({ entries: 10, pictureBytes: 25 });
    const a = activity.add(note('a'), Buffer.alloc(10));
    const b = activity.add(note('b'), Buffer.alloc(10));
    const c = activity.add(note('c'), Buffer.alloc(10));
    expect([a, b, c].map((entry) => activity.picture(entry.id) !== null)).toEqual([false, true, true]);
    expect(activity.pictureBytes).toBe(20);
    const huge = activity.add(note('huge'), Buffer.alloc(26));
    expect(activity.picture(huge.id)).toBeNull();
    expect(activity.list()).toHaveLength(4);
    expect(activity.pictureBytes).toBe(20);
  });

  it('tells its listeners of each entry, until they stop listening', () => {
    const activity = new TabActivity();
    let told = 0;
    const stop = activity.onAdded(() => told++);
    activity.add(note('a'), null);
    stop();
    activity.add(note('b'), null);
    expect(told).toBe(1);
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
