import type {
  PanelMessage,
  UiApprovalAnswer,
  UiApprovalAsk,
  UiApprovalClient,
} from '../../../protocol/panel-protocol.js';
import type { Connection } from '../connection.js';
import { element } from '../element.js';
import { visibleText } from './visible-text.js';

/** The one kind of picture shown (the SDK's APPROVAL_IMAGE_PREFIX; the broker admits nothing else either). */
const IMAGE_PREFIX = 'data:image/png;base64,';

interface OperationWords {
  readonly title: string;
  readonly lead: string;
  readonly subject: string;
}

/** Each operation in words; an unknown one is still shown, by its name, with its whole subject. */
const OPERATIONS: Record<string, OperationWords> = {
  open_workspace: {
    title: 'Open a workspace folder',
    lead: 'An AI assistant asks to open this folder as a workspace, with access to the files in it.',
    subject: 'Folder',
  },
  // Asked only when the save would replace a file that is there (a new location follows a setting).
  save_as: {
    title: 'Replace a file',
    lead: 'An AI assistant asks to save a document over this file, replacing what it holds now.',
    subject: 'File to replace',
  },
  execute_js: {
    title: 'Run a script in a web page',
    lead: 'An AI assistant asks to run this script, as it is written here, in a web page.',
    subject: 'Script',
  },
  // The browser plugin's page operations (it asks for `execute_js` as `eval`).
  eval: {
    title: 'Run a script in a web page',
    lead: 'An AI assistant asks to run this script, as it is written here, in a web page.',
    subject: 'Script',
  },
  click: {
    title: 'Click on a web page',
    lead: 'An AI assistant asks to click this element of a web page, as a person would.',
    subject: 'Click',
  },
  type: {
    title: 'Type into a web page',
    lead: 'An AI assistant asks to type exactly this text into this field of a web page.',
    subject: 'Text and field',
  },
  key: {
    title: 'Press a key on a web page',
    lead: 'An AI assistant asks to press this key on a web page.',
    subject: 'Key',
  },
  attach: {
    title: 'Let the AI use your tab',
    lead: 'An AI assistant asks to read and act in a browser tab you opened: once, or until the page navigates.',
    subject: 'Tab',
  },
  navigate: {
    title: 'Open a web page',
    lead: 'An AI assistant asks to open this address.',
    subject: 'Address',
  },
};

const UNKNOWN: OperationWords = {
  title: 'Allow this operation?',
  lead: 'An AI assistant asks for permission to do this.',
  subject: 'Subject',
};

/**
 * The approval broker's questions as modal dialogs, one at a time, in the
 * order they came. Deny is the default: Enter and Esc deny, and only a click
 * (or Space) on an Allow button allows. A question the host withdraws (answered
 * in another window, its call cancelled) leaves the queue; when the connection
 * is lost every dialog closes unanswered, and the host never takes that as an allow.
 */
export class ApprovalDialogs {
  readonly #queue: UiApprovalAsk[] = [];
  readonly #dialog: HTMLDialogElement;
  /** The question whose answer is on its way: no second answer is sent for it. */
  #answering: string | null = null;

  constructor(
    container: HTMLElement,
    private readonly connection: Connection,
    private readonly refused: (error: unknown) => void,
  ) {
    this.#dialog = document.createElement('dialog');
    this.#dialog.className = 'modal approval-dialog';
    this.#dialog.setAttribute('aria-labelledby', 'approval-title');
    this.#dialog.setAttribute('aria-describedby', 'approval-subject');
    container.append(this.#dialog);
    // Enter and Esc deny, whichever button has the focus; the browser's own Esc handling never runs.
    this.#dialog.addEventListener(
      'keydown',
      (event) => {
        if ((event.key !== 'Enter' && event.key !== 'Escape') || event.isComposing) return;
        event.preventDefault();
        this.#answer('deny');
      },
      true,
    );
    // Any other way the browser closes it (a close request it would not let us cancel) is a denial too.
    this.#dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.#answer('deny');
    });
    this.#dialog.addEventListener('close', () => {
      if (!this.#dialog.open && this.#queue.length > 0) this.#answer('deny');
    });
    connection.onPanelMessage((message) => this.#receive(message));
    connection.onClose(() => {
      this.#queue.length = 0;
      this.#show();
    });
  }

  #receive(message: PanelMessage): void {
    if (message.type === 'approval.ask') {
      if (!this.#queue.some((ask) => ask.askId === message.ask.askId)) this.#queue.push(message.ask);
      this.#show();
    } else if (message.type === 'approval.settled') {
      const index = this.#queue.findIndex((ask) => ask.askId === message.askId);
      if (index < 0) return;
      this.#queue.splice(index, 1);
      if (this.#answering === message.askId) this.#answering = null;
      this.#show();
    }
  }

  #answer(answer: UiApprovalAnswer): void {
    const ask = this.#queue[0];
    if (!ask || this.#answering === ask.askId) return;
    this.#answering = ask.askId;
    this.#dialog.classList.add('is-answering');
    // The host's `approval.settled` takes the dialog away; a refusal means it was already gone.
    this.connection.request('approval.answer', { askId: ask.askId, answer }).catch((error: unknown) => {
      this.#queue.splice(this.#queue.indexOf(ask), 1);
      this.#answering = null;
      this.#show();
      this.refused(error);
    });
  }

  #show(): void {
    const ask = this.#queue[0];
    if (!ask) {
      if (this.#dialog.open) this.#dialog.close();
      this.#dialog.replaceChildren();
      return;
    }
    if (this.#dialog.dataset.askId === ask.askId && this.#dialog.open) {
      this.#renderCount();
      return;
    }
    this.#dialog.dataset.askId = ask.askId;
    this.#dialog.classList.remove('is-answering');
    this.#dialog.replaceChildren(...this.#render(ask));
    this.#renderCount();
    if (!this.#dialog.open) this.#dialog.showModal();
    this.#dialog.querySelector<HTMLButtonElement>('[data-answer=deny]')?.focus();
  }

  #render(ask: UiApprovalAsk): HTMLElement[] {
    const header = element('header', 'modal-header');
    const words = OPERATIONS[ask.operation] ?? UNKNOWN;
    const title = element('h2', 'modal-title', words.title);
    title.id = 'approval-title';
    const count = element('span', 'approval-count');
    header.append(title, count);

    const lead = element('p', 'approval-lead', words.lead);

    const subjectLabel = element('div', 'approval-label', words.subject);
    const subject = element('pre', 'approval-subject');
    subject.id = 'approval-subject';
    subject.append(...visibleText(ask.subject));
    const body = element('div', 'modal-body');
    body.append(lead, element('div', 'approval-label', 'Asked by'), clientLine(ask.client));
    body.append(subjectLabel, subject);
    if (ask.image?.startsWith(IMAGE_PREFIX)) {
      const image = element('img', 'approval-image');
      image.src = ask.image;
      image.alt = 'What it concerns, as the page shows it now';
      body.append(element('div', 'approval-label', 'On the page'), image);
    }
    if (ask.detail !== undefined) body.append(element('p', 'approval-detail', ask.detail));
    if (ask.warning !== undefined)
      body.append(element('p', 'approval-warning', `Cannot be done: ${ask.warning}`));
    if (ask.requested !== undefined) {
      // What the assistant wrote, when links or `..` made it another path: the subject above is what opens.
      const requested = element('pre', 'approval-requested');
      requested.append(...visibleText(ask.requested));
      body.append(element('div', 'approval-label', 'Asked as'), requested);
    }
    if (ask.origin !== undefined) {
      const origin = element('pre', 'approval-subject approval-origin');
      origin.append(...visibleText(ask.origin));
      body.append(element('div', 'approval-label', 'Site'), origin);
    }
    const note = element('p', 'approval-note');
    note.append(
      element('code', 'approval-operation', ask.operation),
      document.createTextNode(` · request ${ask.requestId} · Enter or Esc denies`),
    );
    body.append(note);

    const actions = element('footer', 'modal-actions');
    const button = (answer: UiApprovalAnswer, label: string, kind: string) => {
      const b = element('button', `button ${kind}`, label);
      b.type = 'button';
      b.dataset.answer = answer;
      b.addEventListener('click', () => this.#answer(answer));
      return b;
    };
    if (ask.grantable && ask.origin !== undefined) {
      actions.append(button('allow-site', 'Allow on this site', 'button-quiet'));
    }
    if (ask.untilNavigation === true) {
      actions.append(button('allow-until-navigation', 'Allow until navigation', 'button-quiet'));
    }
    actions.append(button('deny', 'Deny', ''), button('allow', 'Allow once', 'button-primary'));
    return [header, body, actions];
  }

  #renderCount(): void {
    const count = this.#dialog.querySelector('.approval-count');
    if (count) count.textContent = this.#queue.length > 1 ? `1 of ${this.#queue.length}` : '';
  }
}

/**
 * The client connection that asks: the name it gives itself (shown exactly, since a
 * client may pick one that looks like another's), and, telling two of one name apart,
 * its connection and the installed client its credential names, if any.
 */
function clientLine(client: UiApprovalClient): HTMLElement {
  const line = element('div', 'approval-client');
  const name = element('span', 'approval-client-name');
  name.append(...visibleText(client.name));
  const identity =
    client.principal === null
      ? 'not an installed client: the name is its own claim'
      : `installed client ${client.principal}`;
  line.append(
    name,
    element('span', 'approval-client-detail', ` ${client.version} · connection ${client.connectionId} · `),
    element('span', 'approval-client-principal', identity),
  );
  return line;
}
