/// <reference lib="dom" />
/*
 * A browser tab's view in the editor (issue 17, ADR 49), bundled to ui/dist/browser-tab-view.js by
 * `npm run build`: the page's live picture, scaled to the pane, with an address bar, back /
 * forward / reload, the title and who drives. The person's clicks, wheel and keys on the picture
 * go to the page, at the point of the page they are over; the first takes the tab over from the
 * AI, "Hand back to AI" returns it. The picture is watched only while the view is mounted and
 * the editor page is visible: a tab nobody looks at sends nothing.
 */
import type { CustomKindView, KindViewApi } from '@vmark/sdk';
import type { ViewMessage } from '../src/view/browser-view-provider.js';
import type { PersonInput } from '../src/view/person-input.js';

const STYLE_ID = 'vmark-browser-tab-view';
const STYLE = `
.browser-tab-view { display: flex; flex-direction: column; height: 100%; min-height: 0; }
.browser-tab-view .bt-bar { display: flex; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--rule); }
.browser-tab-view .bt-bar button { border: 1px solid var(--rule); background: var(--paper); border-radius: 6px; padding: 2px 8px; cursor: pointer; color: var(--ink); }
.browser-tab-view .bt-address { flex: 1; min-width: 0; }
.browser-tab-view .bt-address input { width: 100%; padding: 3px 8px; border: 1px solid var(--rule); border-radius: 6px; font: inherit; }
.browser-tab-view .bt-title { max-width: 30%; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; color: var(--ink-soft); }
.browser-tab-view .bt-driver { padding: 1px 8px; border-radius: 10px; background: var(--accent-soft); color: var(--accent); font-size: 12px; white-space: nowrap; }
.browser-tab-view[data-driver="human"] .bt-driver { background: #fdebd3; color: #8a4b08; }
.browser-tab-view .bt-hand-back[hidden] { display: none; }
.browser-tab-view .bt-stage { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; background: var(--chrome); }
.browser-tab-view .bt-picture { max-width: 100%; max-height: 100%; object-fit: contain; outline: none; cursor: default; user-select: none; }
.browser-tab-view .bt-picture:focus-visible { box-shadow: 0 0 0 2px var(--accent); }
.browser-tab-view .bt-body { flex: 1; min-height: 0; display: flex; }
.browser-tab-view .bt-activity { width: 280px; overflow: auto; border-left: 1px solid var(--rule); font-size: 12px; }
.browser-tab-view .bt-activity[hidden] { display: none; }
.browser-tab-view .bt-activity ol { list-style: none; margin: 0; padding: 0; }
.browser-tab-view .bt-activity li button { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--rule); background: none; padding: 6px 8px; cursor: pointer; color: var(--ink); }
.browser-tab-view .bt-activity li[data-kind="refusal"] button { color: var(--danger); }
.browser-tab-view .bt-activity .bt-kind { display: inline-block; min-width: 64px; margin-right: 6px; font-size: 11px; text-transform: uppercase; letter-spacing: .03em; color: var(--ink-soft); }
.browser-tab-view .bt-activity li[data-kind="approval"] .bt-kind { color: var(--accent); }
.browser-tab-view .bt-activity li[data-kind="step"] button, .browser-tab-view .bt-activity li[data-kind="workflow"] button { padding-left: 16px; }
.browser-tab-view .bt-activity li[data-kind="workflow"] .bt-what { font-weight: 600; }
.browser-tab-view .bt-activity li[data-answer="denied"] .bt-outcome, .browser-tab-view .bt-activity li[data-answer="withdrawn"] .bt-outcome { color: var(--danger); }
.browser-tab-view .bt-activity .bt-outcome, .browser-tab-view .bt-activity time, .browser-tab-view .bt-activity .bt-no-picture { color: var(--ink-soft); margin-left: 6px; }
.browser-tab-view .bt-activity img { width: 100%; display: block; border-bottom: 1px solid var(--rule); }
.browser-tab-view .bt-error { color: var(--danger); padding: 0 8px; font-size: 12px; }
`;

export const view: CustomKindView<HTMLElement> = { type: 'custom', mount };

type ListedKind = Extract<ViewMessage, { type: 'activity' }>['entries'][number]['kind'];

/** An entry's kind as the list names it, before what was done. */
const KIND_LABELS: Record<ListedKind, string> = {
  navigation: 'Navigated',
  act: 'Acted',
  refusal: 'Refused',
  approval: 'Approval',
  step: 'Step',
  workflow: 'Workflow',
};

function mount(root: HTMLElement, api: KindViewApi): () => void {
  const tabId = api.tab.id;
  addStyle();
  root.classList.add('browser-tab-view');
  root.dataset.frames = '0';

  const back = button('←', 'Back');
  const forward = button('→', 'Forward');
  const reload = button('⟳', 'Reload');
  const form = node('form', 'bt-address');
  const address = node('input', '');
  address.type = 'text';
  address.spellcheck = false;
  address.setAttribute('aria-label', 'Address');
  form.append(address);
  const title = node('span', 'bt-title');
  const driver = node('span', 'bt-driver');
  const ownTab = button('+', 'Open the address in a new tab of your own');
  ownTab.classList.add('bt-own-tab');
  const activityToggle = button('Activity', 'What the AI did in this tab');
  activityToggle.setAttribute('aria-expanded', 'false');
  const handBack = button('Hand back to AI', 'Give this tab back to the AI');
  handBack.classList.add('bt-hand-back');
  handBack.hidden = true;
  const bar = node('div', 'bt-bar');
  bar.append(back, forward, reload, form, ownTab, title, driver, activityToggle, handBack);
  const error = node('p', 'bt-error');
  error.hidden = true;
  const stage = node('div', 'bt-stage');
  const picture = node('img', 'bt-picture');
  picture.alt = 'The page';
  picture.tabIndex = 0;
  picture.draggable = false;
  stage.append(picture);
  const activity = node('aside', 'bt-activity');
  activity.setAttribute('aria-label', 'Activity');
  activity.hidden = true;
  const shown = node('img', '');
  shown.alt = 'The page at the time';
  shown.hidden = true;
  const entries = node('ol', '');
  activity.append(shown, entries);
  const body = node('div', 'bt-body');
  body.append(stage, activity);
  root.append(bar, error, body);

  /** The page's viewport in CSS pixels, as the last frame said. */
  let size = { width: 0, height: 0 };
  let frames = 0;

  const refused = (cause: unknown) => {
    error.textContent = cause instanceof Error ? cause.message : String(cause);
    error.hidden = false;
  };
  const ask = (method: string, params: Record<string, unknown> = {}) => {
    error.hidden = true;
    return api.request(method, { tabId, ...params }).catch(refused);
  };
  const send = (input: PersonInput) => ask('input', { input });

  const showPicture = async (entryId: number) => {
    const answer = (await ask('activityPicture', { entryId })) as { jpeg: string | null } | undefined;
    shown.hidden = typeof answer?.jpeg !== 'string';
    if (typeof answer?.jpeg === 'string') shown.src = `data:image/jpeg;base64,${answer.jpeg}`;
    shown.dataset.entry = String(entryId);
  };
  const list = (listed: Extract<ViewMessage, { type: 'activity' }>['entries']) => {
    // Text only, set as text: what a page named (a title, an element's name) is never markup here.
    entries.replaceChildren(
      ...listed.map((entry) => {
        const item = node('li', '');
        item.dataset.kind = entry.kind;
        item.dataset.entry = String(entry.id);
        item.dataset.picture = entry.picture;
        if (entry.kind === 'approval') item.dataset.answer = entry.outcome.split(/[ :,]/, 1)[0]!;
        const open = node('button', '');
        open.type = 'button';
        open.disabled = entry.picture !== 'ready';
        const kind = node('span', 'bt-kind');
        kind.textContent = KIND_LABELS[entry.kind];
        const what = node('span', 'bt-what');
        what.textContent = entry.what;
        const outcome = node('span', 'bt-outcome');
        outcome.textContent = entry.outcome;
        const at = node('time', '');
        at.dateTime = new Date(entry.at).toISOString();
        at.textContent = new Date(entry.at).toLocaleTimeString();
        open.append(kind, what, outcome, at);
        if (entry.picture !== 'ready') {
          const none = node('span', 'bt-no-picture');
          none.textContent = entry.picture === 'pending' ? 'picture…' : 'no picture';
          open.append(none);
        }
        open.addEventListener('click', () => void showPicture(entry.id));
        item.append(open);
        return item;
      }),
    );
    root.dataset.activity = String(listed.length);
  };
  activityToggle.addEventListener('click', () => {
    activity.hidden = !activity.hidden;
    activityToggle.setAttribute('aria-expanded', String(!activity.hidden));
  });

  const show = (message: ViewMessage) => {
    if (message.type === 'activity') return list(message.entries);
    if (message.type === 'frame') {
      size = { width: message.width, height: message.height };
      picture.src = `data:image/jpeg;base64,${message.jpeg}`;
      root.dataset.frames = String(++frames);
      root.dataset.viewport = `${message.width}x${message.height}`;
      root.dataset.frameTimestamp = String(message.timestamp);
      return;
    }
    if (document.activeElement !== address) address.value = message.url;
    title.textContent = message.title;
    root.dataset.driver = message.driver;
    root.dataset.loading = String(message.loading);
    driver.textContent =
      message.automationMode === 'human'
        ? 'Your tab'
        : message.driver === 'human'
          ? 'You are driving'
          : message.automationMode === 'ai-shared'
            ? 'AI shared'
            : 'AI sandbox';
    handBack.hidden = message.driver !== 'human' || message.automationMode === 'human';
  };

  // Watched while shown: the editor unmounts a tab it hides, and a hidden page stops too.
  let unwatch: (() => void) | null = null;
  const watch = () => {
    if (document.visibilityState === 'hidden') return;
    unwatch ??= api.subscribe(tabId, (data) => show(data as ViewMessage));
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') {
      unwatch?.();
      unwatch = null;
    } else watch();
  };
  document.addEventListener('visibilitychange', onVisibility);
  watch();

  /** A point over the picture, in the page's CSS pixels (the picture keeps its shape in the pane). */
  const pointOf = (event: MouseEvent): { x: number; y: number } => {
    const box = picture.getBoundingClientRect();
    const scale = Math.min(box.width / (size.width || 1), box.height / (size.height || 1));
    const left = box.left + (box.width - size.width * scale) / 2;
    const top = box.top + (box.height - size.height * scale) / 2;
    return { x: (event.clientX - left) / scale, y: (event.clientY - top) / scale };
  };
  const buttonOf = (event: MouseEvent) => (['left', 'middle', 'right'] as const)[event.button] ?? 'left';

  // Pointer moves are many: one in flight at a time, the latest waiting.
  let moving = false;
  let nextMove: { x: number; y: number } | null = null;
  const move = (point: { x: number; y: number }) => {
    if (moving) {
      nextMove = point;
      return;
    }
    moving = true;
    void send({ type: 'move', ...point }).finally(() => {
      moving = false;
      const waiting = nextMove;
      nextMove = null;
      if (waiting !== null) move(waiting);
    });
  };

  picture.addEventListener('mousedown', (event) => {
    event.preventDefault();
    picture.focus();
    void send({ type: 'down', ...pointOf(event), button: buttonOf(event), clickCount: clicks(event) });
  });
  picture.addEventListener('mouseup', (event) => {
    event.preventDefault();
    void send({ type: 'up', ...pointOf(event), button: buttonOf(event), clickCount: clicks(event) });
  });
  picture.addEventListener('mousemove', (event) => {
    // Hovering alone is no taking over: only a move with a button held (a drag) is sent.
    if (event.buttons !== 0) move(pointOf(event));
  });
  picture.addEventListener('contextmenu', (event) => event.preventDefault());
  picture.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      void send({ type: 'wheel', ...pointOf(event), dx: event.deltaX, dy: event.deltaY });
    },
    { passive: false },
  );
  picture.addEventListener('keydown', (event) => {
    event.preventDefault();
    void send({ type: 'keydown', key: event.key });
  });
  picture.addEventListener('keyup', (event) => {
    event.preventDefault();
    void send({ type: 'keyup', key: event.key });
  });

  back.addEventListener('click', () => void ask('back'));
  forward.addEventListener('click', () => void ask('forward'));
  reload.addEventListener('click', () => void ask('reload'));
  handBack.addEventListener('click', () => void ask('handBack'));
  ownTab.addEventListener('click', () => {
    if (address.value.trim() !== '') void ask('openTab', { url: address.value });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (address.value.trim() !== '') void ask('navigate', { url: address.value });
    picture.focus();
  });

  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    unwatch?.();
    unwatch = null;
  };
}

function clicks(event: MouseEvent): number {
  return Math.min(Math.max(event.detail, 1), 3);
}

function addStyle(): void {
  if (document.getElementById(STYLE_ID) !== null) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = STYLE;
  document.head.append(style);
}

function node<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.className = className;
  return element;
}

function button(label: string, title: string): HTMLButtonElement {
  const element = node('button', 'bt-button');
  element.type = 'button';
  element.textContent = label;
  element.title = title;
  // A glyph says nothing to a screen reader: its title does.
  if (label.length <= 2) element.setAttribute('aria-label', title);
  return element;
}
