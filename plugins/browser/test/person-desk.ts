import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApprovalsToken, type Disposable } from '@vmark/sdk';
import { startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { browserUnderTest, setBrowserEnv } from './browser-rig.js';
import { HOST_RULES } from './fixture-server.js';
import { type PageServer, startPageServer } from './page-server.js';

/**
 * The person at the editor, for tests of approved browser operations: registered as the host
 * broker's UI approver, they answer Allow once, Allow on this site, Allow until navigation or Deny — or cannot be
 * reached, so that a request waits for `vmark approvals`, which `decide` stands for — or leave
 * the dialog open (`hold`) until the asker takes it back.
 */
export type Answer = 'allow' | 'allow-site' | 'allow-until-navigation' | 'deny' | 'nobody' | 'hold';

export interface Question {
  readonly request: {
    readonly operation: string;
    readonly subject: string;
    readonly origin?: string;
    readonly image?: string;
    readonly untilNavigation?: boolean;
  };
  readonly requestId: string;
}

export interface PersonDesk extends Disposable {
  /** How the next questions are answered. */
  answer: Answer;
  /** Every question asked, in order. */
  readonly asked: Question[];
  /** Questions left open (`hold`) that the asker took back before anyone answered. */
  readonly withdrawn: Question[];
  /** The person finally answers the questions left open (`hold`) so far. */
  answerHeld(answer: 'allow' | 'deny'): void;
  /** A terminal's `vmark approvals allow|deny ID`. */
  decide(id: string, decision: 'allow' | 'deny'): void;
  /** The ids of the requests waiting for a terminal (`vmark approvals list`). */
  waiting(): string[];
  /** Every entry as `vmark approvals list` receives it. */
  listed(): Record<string, unknown>[];
  /** Back to answering Allow once, with nothing asked yet. */
  reset(): void;
}

/** The broker's own surface for the person (core/approvals), reached through the host's container. */
interface Broker {
  registerApprover(approver: {
    kind: 'ui';
    ask(question: Question, signal: AbortSignal): Promise<string>;
  }): Disposable;
  decide(id: string, decision: 'allow' | 'deny'): unknown;
  list(): ({ id: string; status: string } & Record<string, unknown>)[];
}

export function personAt(kit: TestHost): PersonDesk {
  const broker = kit.host.container.get(ApprovalsToken) as unknown as Broker;
  const asked: Question[] = [];
  const withdrawn: Question[] = [];
  const held: ((answer: string) => void)[] = [];
  const desk: PersonDesk = {
    answer: 'allow',
    asked,
    withdrawn,
    answerHeld: (answer) => {
      for (const resolve of held.splice(0)) resolve(answer);
    },
    decide: (id, decision) => void broker.decide(id, decision),
    waiting: () =>
      broker
        .list()
        .filter((entry) => entry.status === 'waiting')
        .map((entry) => entry.id),
    listed: () => broker.list(),
    reset: () => {
      desk.answer = 'allow';
      asked.length = 0;
      withdrawn.length = 0;
    },
    dispose: () => registration.dispose(),
  };
  const registration = broker.registerApprover({
    kind: 'ui',
    ask: (question, signal) => {
      asked.push(question);
      if (desk.answer === 'nobody') return Promise.reject(new Error('no window to ask in'));
      if (desk.answer === 'hold') {
        return new Promise<string>((resolve, reject) => {
          held.push(resolve);
          signal.addEventListener('abort', () => {
            withdrawn.push(question);
            reject(new Error('withdrawn'));
          });
        });
      }
      return Promise.resolve(desk.answer);
    },
  });
  return desk;
}

/**
 * A host with the browser plugin (private networks allowed, the test host names mapped to
 * loopback) and the person at its desk; `dispose` undoes all of it.
 */
export async function startHostWithPerson(): Promise<{
  kit: TestHost;
  person: PersonDesk;
  readonly dispose: () => Promise<void>;
}> {
  const restoreEnv = setBrowserEnv({
    VMARK_BROWSER_ALLOW_PRIVATE: '1',
    VMARK_BROWSER_HOST_RULES: HOST_RULES,
  });
  const kit = await startTestHost({ plugins: [browserUnderTest] });
  const person = personAt(kit);
  return {
    kit,
    person,
    dispose: async () => {
      person.dispose();
      await kit.dispose();
      restoreEnv();
    },
  };
}

/** What `personHostForFile` gives a test file, once its `beforeAll` has run. */
export interface PersonHost {
  readonly kit: TestHost;
  readonly person: PersonDesk;
  readonly server: PageServer;
}

/**
 * For a test file: fixture pages (`serve` routes them) and a host with the person, started
 * before the file's tests and stopped after them, the person reset before each test.
 */
export function personHostForFile(serve: (server: PageServer) => void): PersonHost {
  let started: (PersonHost & { readonly dispose: () => Promise<void> }) | undefined;
  const get = (): PersonHost => {
    if (started === undefined) throw new Error('the host starts in beforeAll');
    return started;
  };
  beforeAll(async () => {
    const server = await startPageServer();
    serve(server);
    started = { server, ...(await startHostWithPerson()) };
  }, 60_000);
  afterAll(async () => {
    await started?.dispose();
    await started?.server.close();
  });
  beforeEach(() => get().person.reset());
  return {
    get kit() {
      return get().kit;
    },
    get person() {
      return get().person;
    },
    get server() {
      return get().server;
    },
  };
}

/** A request of the browser tab view's provider, as the editor page sends it. */
export const viewRequest = (kit: TestHost, method: string, params: unknown): Promise<unknown> =>
  kit.host.plugins.views.request('browser', 'browser', method, params);

export interface BrowserTabState {
  readonly id: string;
  readonly kind: string;
  readonly title?: string;
  readonly url: string;
  readonly active: boolean;
  readonly automationMode: string;
  readonly attached?: boolean;
}

/** The browser tabs as `session.get_state` lists them (the session tool is core's, not in this host). */
export function browserTabs(kit: TestHost): BrowserTabState[] {
  return kit.host.workbench.providedTabs('main') as unknown as BrowserTabState[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A person's own tab at `url`, opened with the "+" of the address bar of an AI tab at `beside`
 * (closed again once it has), and loaded: listed origin-only, its view showing the page's title.
 */
export async function openHumanTab(kit: TestHost, beside: string, url: string): Promise<string> {
  const opened = await kit.call('browser', { action: 'open', url: beside });
  if (opened.isError) throw new Error(opened.text);
  const aiTab = (opened.data as { tabId: string }).tabId;
  const { tabId } = (await viewRequest(kit, 'openTab', { tabId: aiTab, url })) as { tabId: string };
  const target = new URL(url);
  for (;;) {
    const tab = browserTabs(kit).find((t) => t.id === tabId);
    if (tab !== undefined && tab.url === target.origin) {
      const shown = (await viewRequest(kit, 'state', { tabId })) as {
        url: string;
        loading: boolean;
        title: string;
      };
      if (!shown.loading && shown.url === `${target.origin}${target.pathname}` && shown.title !== '') break;
    }
    await pause(50);
  }
  await kit.call('browser', { action: 'close', tabId: aiTab });
  return tabId;
}

/** Waits until the person's tab is listed attached, or not. */
export async function untilAttached(kit: TestHost, tabId: string, attached: boolean): Promise<void> {
  while (browserTabs(kit).find((t) => t.id === tabId)?.attached !== attached) await pause(20);
}

/** A call of another MCP client of the same host. */
export async function callAs(
  kit: TestHost,
  clientName: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const client = await kit.connect(clientName);
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
