import { ApprovalsToken, type Disposable } from '@vmark/sdk';
import { startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { browserUnderTest, setBrowserEnv } from './browser-rig.js';
import { HOST_RULES } from './fixture-server.js';
import { type PageServer, startPageServer } from './page-server.js';

/**
 * The person at the editor, for tests of approved browser operations: registered as the host
 * broker's UI approver, they answer Allow once, Allow on this site or Deny — or cannot be
 * reached, so that a request waits for `vmark approvals`, which `decide` stands for.
 */
export type Answer = 'allow' | 'allow-site' | 'deny' | 'nobody';

export interface Question {
  readonly request: { readonly operation: string; readonly subject: string; readonly origin?: string };
  readonly requestId: string;
}

export interface PersonDesk extends Disposable {
  /** How the next questions are answered. */
  answer: Answer;
  /** Every question asked, in order. */
  readonly asked: Question[];
  /** A terminal's `vmark approvals allow|deny ID`. */
  decide(id: string, decision: 'allow' | 'deny'): void;
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
}

export function personAt(kit: TestHost): PersonDesk {
  const broker = kit.host.container.get(ApprovalsToken) as unknown as Broker;
  const asked: Question[] = [];
  const desk: PersonDesk = {
    answer: 'allow',
    asked,
    decide: (id, decision) => void broker.decide(id, decision),
    reset: () => {
      desk.answer = 'allow';
      asked.length = 0;
    },
    dispose: () => registration.dispose(),
  };
  const registration = broker.registerApprover({
    kind: 'ui',
    ask: (question) => {
      asked.push(question);
      if (desk.answer === 'nobody') return Promise.reject(new Error('no window to ask in'));
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

/** One test file's host with the person, and its page server. */
export interface PersonRig {
  readonly kit: TestHost;
  readonly person: PersonDesk;
  readonly server: PageServer;
}

/**
 * Starts a page server (its pages set up by `serve`) and a host with the person before the file's
 * tests, stops both after them, and has the person answer Allow once, with nothing asked yet,
 * before each test.
 */
export function hostWithPersonForFile(serve: (server: PageServer) => void): PersonRig {
  const rig = {} as { kit: TestHost; person: PersonDesk; server: PageServer };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    rig.server = await startPageServer();
    serve(rig.server);
    ({ kit: rig.kit, person: rig.person, dispose } = await startHostWithPerson());
  }, 60_000);
  afterAll(async () => {
    await dispose?.();
    await rig.server?.close();
  });
  beforeEach(() => rig.person.reset());
  return rig;
}
