import { describe, expect, it } from 'vitest';
import type { AXNode } from './cdp-types.js';
import { NAME_CHARS, planEntries, SELECT_OPTIONS } from './ax-plan.js';

/*
 * The plan from Chromium's accessibility tree to snapshot entries, on trees written as CDP
 * sends them (the real-browser tests in test/ check the same against Chromium itself).
 */

interface Spec {
  role: string;
  name?: string;
  ignored?: boolean;
  props?: Record<string, unknown>;
  children?: Spec[];
}

/** A CDP AX tree (flat, parent and child ids, backend ids) from a nested spec. */
function tree(root: Spec): AXNode[] {
  const nodes: AXNode[] = [];
  let next = 1;
  const add = (spec: Spec, parentId?: string): string => {
    const id = String(next++);
    const node: AXNode = {
      nodeId: id,
      ignored: spec.ignored ?? false,
      role: { type: 'role', value: spec.role },
      name: { type: 'computedString', value: spec.name ?? '' },
      backendDOMNodeId: Number(id) + 100,
      properties: Object.entries(spec.props ?? {}).map(([name, value]) => ({
        name: name as never,
        value: { type: 'booleanOrUndefined', value },
      })),
      ...(parentId === undefined ? {} : { parentId }),
    };
    nodes.push(node);
    node.childIds = (spec.children ?? []).map((child) => add(child, id));
    return id;
  };
  add(root);
  return nodes;
}

const text = (name: string): Spec => ({
  role: 'StaticText',
  name,
  children: [{ role: 'InlineTextBox', name }],
});
const page = (...children: Spec[]): Spec => ({ role: 'RootWebArea', name: 'Title', children });
const shape = (nodes: AXNode[]) =>
  planEntries(nodes).map((e) => (e.kind === 'text' ? ['text', e.name] : [e.role, e.name]));

describe('planEntries', () => {
  it('drops what carries nothing: generic containers, lists, list markers, whitespace, ignored nodes', () => {
    const nodes = tree(
      page({
        role: 'generic',
        children: [
          {
            role: 'list',
            children: [{ role: 'listitem', children: [{ role: 'ListMarker', name: '• ' }, text('  ')] }],
          },
          { role: 'none', ignored: true, children: [{ role: 'button', name: 'Hidden', ignored: true }] },
          text(' | '),
        ],
      }),
    );
    expect(planEntries(nodes)).toEqual([]);
  });

  it('keeps controls with their own name, and headings with their level; their text is not repeated', () => {
    const nodes = tree(
      page(
        { role: 'heading', name: 'Welcome', props: { level: 2 }, children: [text('Welcome')] },
        { role: 'link', name: 'Home', props: { focusable: true }, children: [text('Home')] },
        { role: 'button', name: '', children: [{ role: 'generic', children: [text('Save'), text('all')] }] },
      ),
    );
    expect(planEntries(nodes)).toEqual([
      { kind: 'element', role: 'heading', name: 'Welcome', cut: false, backendNodeId: 102, level: 2 },
      { kind: 'element', role: 'link', name: 'Home', cut: false, backendNodeId: 105 },
      { kind: 'element', role: 'button', name: 'Save all', cut: false, backendNodeId: 108 },
    ]);
  });

  it('says checked for checkable controls (false too) and disabled when so', () => {
    const nodes = tree(
      page(
        { role: 'checkbox', name: 'A', props: { checked: 'true' } },
        { role: 'checkbox', name: 'B', props: { checked: 'false' } },
        { role: 'checkbox', name: 'C', props: { checked: 'mixed' } },
        { role: 'button', name: 'Go', props: { disabled: true } },
      ),
    );
    expect(planEntries(nodes).map((e) => (e.kind === 'element' ? [e.checked, e.disabled] : null))).toEqual([
      [true, undefined],
      [false, undefined],
      ['mixed', undefined],
      [undefined, true],
    ]);
  });

  it('keeps any focusable element, named by its text, and named images; drops unnamed images', () => {
    const nodes = tree(
      page(
        { role: 'generic', props: { focusable: true }, children: [text('Focus me')] },
        { role: 'image', name: 'A cat' },
        { role: 'image', name: '' },
      ),
    );
    expect(shape(nodes)).toEqual([
      ['generic', 'Focus me'],
      ['image', 'A cat'],
    ]);
  });

  it('keeps the text between controls as one excerpt, cut with an ellipsis', () => {
    const long = 'word '.repeat(100);
    const nodes = tree(
      page(
        { role: 'paragraph', children: [text('First paragraph.')] },
        { role: 'paragraph', children: [text('Second one.')] },
        { role: 'link', name: 'More', props: { focusable: true } },
        { role: 'paragraph', children: [text(long)] },
      ),
    );
    const entries = planEntries(nodes);
    expect(entries[0]).toEqual({ kind: 'text', name: 'First paragraph. Second one.' });
    expect(entries[1]).toMatchObject({ kind: 'element', role: 'link' });
    const excerpt = entries[2]!;
    expect(excerpt.kind).toBe('text');
    expect(excerpt.name.length).toBeLessThanOrEqual(NAME_CHARS);
    expect(excerpt.name.endsWith('…')).toBe(true);
  });

  it('cuts a control name at 200 characters and says so', () => {
    const nodes = tree(page({ role: 'link', name: 'x'.repeat(500), props: { focusable: true } }));
    const [entry] = planEntries(nodes);
    expect(entry).toMatchObject({ kind: 'element', cut: true });
    expect(entry!.name).toHaveLength(NAME_CHARS);
  });

  it('keeps the controls of page furniture (navigation, footer) but not its text', () => {
    const nodes = tree(
      page(
        { role: 'navigation', name: 'Main', children: [text('Menu:'), { role: 'link', name: 'News' }] },
        { role: 'main', children: [{ role: 'paragraph', children: [text('The story.')] }] },
        { role: 'contentinfo', children: [text('© 2026 Someone')] },
      ),
    );
    expect(shape(nodes)).toEqual([
      ['navigation', 'Main'],
      ['link', 'News'],
      ['main', ''],
      ['text', 'The story.'],
      ['contentinfo', ''],
    ]);
  });

  it('says a label once: its text next to the control it names is dropped', () => {
    const nodes = tree(
      page({
        role: 'form',
        children: [
          { role: 'LabelText', children: [text('Email: '), { role: 'textbox', name: 'Email' }] },
          { role: 'button', name: 'Send' },
          { role: 'paragraph', children: [text('Send')] },
          { role: 'paragraph', children: [text('We never share it.')] },
        ],
      }),
    );
    expect(shape(nodes)).toEqual([
      ['form', ''],
      ['textbox', 'Email'],
      ['button', 'Send'],
      ['text', 'We never share it.'],
    ]);
  });

  it('lists the first options of a closed select and counts the others', () => {
    const options = Array.from({ length: SELECT_OPTIONS + 10 }, (_, i) => ({
      role: 'option',
      name: `Country ${i}`,
    }));
    const nodes = tree(
      page({ role: 'combobox', name: 'Country', children: [{ role: 'MenuListPopup', children: options }] }),
    );
    const entries = shape(nodes);
    expect(entries[0]).toEqual(['combobox', 'Country']);
    expect(entries.filter(([role]) => role === 'option')).toHaveLength(SELECT_OPTIONS);
    expect(entries.at(-1)).toEqual(['text', '…and 10 more options']);
  });

  it('marks an iframe as a frame, whose document the reader puts after it', () => {
    const nodes = tree(page({ role: 'Iframe', name: 'Ad' }));
    expect(planEntries(nodes)).toEqual([
      { kind: 'element', role: 'iframe', name: 'Ad', cut: false, backendNodeId: 102, frame: true },
    ]);
  });

  it('does not repeat an image or heading that only repeats the link around it', () => {
    const nodes = tree(
      page({
        role: 'link',
        name: 'Story title',
        props: { focusable: true },
        children: [
          { role: 'heading', name: 'Story title', props: { level: 3 } },
          { role: 'image', name: 'Story' },
        ],
      }),
    );
    expect(shape(nodes)).toEqual([['link', 'Story title']]);
  });

  it('walks a very deep tree without overflowing the stack', () => {
    // Built flat: 20,000 nested generic nodes, a button at the bottom.
    const depth = 20_000;
    const nodes: AXNode[] = Array.from({ length: depth + 1 }, (_, i) => ({
      nodeId: String(i),
      ignored: false,
      role: { type: 'role', value: i === 0 ? 'RootWebArea' : i === depth ? 'button' : 'generic' },
      name: { type: 'computedString', value: i === depth ? 'Deep' : '' },
      backendDOMNodeId: i + 1,
      childIds: i === depth ? [] : [String(i + 1)],
      ...(i === 0 ? {} : { parentId: String(i - 1) }),
    }));
    expect(shape(nodes)).toEqual([['button', 'Deep']]);
  });
});
