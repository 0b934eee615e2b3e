import { credentialPath } from '../url/redact.js';
import { InputSlugs } from './input-slug.js';
import type { StepKind, Workflow, WorkflowStep } from './workflow-ir.js';

/*
 * What a recording becomes (vmark-notes §4.3, `recordingToWorkflow`): the locators a person
 * touched and never what they typed. A text field becomes a `{variable}` input, a password or
 * one-time-code field a `confirm:` step done by hand at replay, a URL its origin and path.
 */

/** One captured event, value-free by its type: a field edit carries the field, not its text. */
export type RecordedEvent =
  | { readonly type: 'navigate'; readonly url: string }
  | { readonly type: 'click'; readonly name: string; readonly role?: string }
  | {
      readonly type: 'type';
      readonly name: string;
      readonly role?: string;
      /** A password or one-time-code field: a human gate, never an input. */
      readonly sensitive: boolean;
    }
  | { readonly type: 'extract' };

export interface Recording {
  readonly site?: string;
  readonly trigger?: string;
  readonly events: readonly RecordedEvent[];
}

export const DEFAULT_SITE = 'recording';
const SITE_MAX = 64;
const NAME_MAX = 120;

/** One line, trimmed, at most `max` characters (code points, so no pair is cut in two). */
function oneLine(text: string, max: number): string {
  const folded = text.replace(/[\r\n]+/g, ' ').trim();
  return [...folded].slice(0, max).join('').trim();
}

/** `workflow_record`'s site: trimmed, line breaks folded, ≤ 64 characters, `recording` if empty. */
export function recordingSite(site: string | undefined): string {
  return oneLine(site ?? '', SITE_MAX) || DEFAULT_SITE;
}

/**
 * An accessible name as the grammar quotes it: a JSON string of at most 120 characters. Its braces
 * are written as escapes, so a page that names a button `{password}` makes no `{input}` reference.
 */
const quotedName = (name: string) =>
  JSON.stringify([...name].slice(0, NAME_MAX).join(''))
    .replaceAll('{', '\\u007b')
    .replaceAll('}', '\\u007d');

/** A role the recorder trusts: one lower-case word (`button`, `textbox`), else none. */
function keptRole(role: string | undefined): string | undefined {
  const lower = role?.toLowerCase();
  return lower !== undefined && /^[a-z]+$/.test(lower) ? lower : undefined;
}

/** Origin and path of an http(s) URL; the origin alone when the path may carry a credential. */
function navigationText(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'navigate';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'navigate';
  return `navigate to ${credentialPath(url.pathname) ? url.origin : url.origin + url.pathname}`;
}

type StepDraft = { readonly kind: StepKind; readonly text: string };

function stepFor(event: RecordedEvent, eventNumber: number, slugs: InputSlugs): StepDraft {
  switch (event.type) {
    case 'navigate':
      return { kind: 'action', text: navigationText(event.url) };
    case 'extract':
      return { kind: 'extract', text: 'content' };
    case 'click': {
      const role = keptRole(event.role);
      if (role === undefined || event.name === '')
        return {
          kind: 'confirm',
          text: `click ${quotedName(event.name)} by hand — the recorder could not map it to an ARIA control`,
        };
      return { kind: 'action', text: `click ${quotedName(event.name)} (${role})` };
    }
    case 'type': {
      if (event.sensitive || event.name === '')
        return { kind: 'confirm', text: `enter ${quotedName(event.name)}` };
      const role = keptRole(event.role);
      const slug = slugs.take(event.name, eventNumber);
      return {
        kind: 'action',
        text: `type {${slug}} into ${quotedName(event.name)}${role === undefined ? '' : ` (${role})`}`,
      };
    }
  }
}

/** The workflow a recording describes; `printWorkflow` writes it. */
export function recordingToWorkflow(recording: Recording): Workflow {
  const slugs = new InputSlugs();
  const drafts = recording.events.map((event, i) => stepFor(event, i + 1, slugs));
  const inputs = slugs.list();
  const trigger = oneLine(recording.trigger ?? '', SITE_MAX);
  // The printed source's lines before the first step: `---`, site, inputs?, trigger?, `---`.
  const header = 3 + (inputs.length > 0 ? 1 : 0) + (trigger === '' ? 0 : 1);
  const steps: WorkflowStep[] = drafts.map((draft, i) => ({ index: i + 1, ...draft, line: header + i + 1 }));
  return { site: recordingSite(recording.site), inputs, ...(trigger === '' ? {} : { trigger }), steps };
}
