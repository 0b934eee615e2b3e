/*
 * The executable grammar of an `action:` step's text (vmark-notes §4.2), exactly what the
 * recorder emits:
 *
 *   click "<name>" [(<role>)]
 *   type "<literal>"|{<input>} into "<name>" [(<role>)]
 *   navigate to <url>
 *
 * Anything else is `not-executable` (the run pauses for the model); a sentence that starts like
 * the grammar but breaks it is `malformed-target` / `malformed-value` (an error pause).
 */

export interface ActionTarget {
  /** The accessible name, as a JSON string literal decodes it. */
  readonly name: string;
  /** An ARIA role; absent, the executor resolves it from a fresh snapshot. */
  readonly role?: string;
}

export type TypedValue =
  { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'input'; readonly name: string };

export type ActionCommand =
  | { readonly verb: 'navigate'; readonly url: string }
  | { readonly verb: 'click'; readonly target: ActionTarget }
  | { readonly verb: 'type'; readonly value: TypedValue; readonly target: ActionTarget };

export type ActionFailureCode = 'not-executable' | 'malformed-target' | 'malformed-value';

export type ActionTextParse =
  | { readonly ok: true; readonly command: ActionCommand }
  | { readonly ok: false; readonly code: ActionFailureCode; readonly message: string };

const NAVIGATE = /^navigate to (\S.*)$/;
const ROLE = /^\(([a-z]+(?:-[a-z]+)*)\)$/;
const INPUT_REF = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/;
const INTO = /^\s+into\s+/;

const NOT_EXECUTABLE =
  'not in the executable grammar (navigate to <url>, click "<name>" (<role>), type "<text>"|{input} into "<name>" (<role>))';

const failure = (code: ActionFailureCode, message: string): ActionTextParse => ({ ok: false, code, message });

/** A JSON string literal at the start of `text`: its value and the rest, or why it is not one. */
function quotedRun(text: string): { value: string; rest: string } | { problem: string } {
  let end = 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  if (end >= text.length) return { problem: 'unterminated quoted text' };
  try {
    // JSON.parse refuses a raw control character and an invalid escape, as the grammar does.
    const value = JSON.parse(text.slice(0, end + 1)) as string;
    return { value, rest: text.slice(end + 1) };
  } catch {
    return { problem: 'quoted text is not a valid JSON string (an invalid escape or a control character)' };
  }
}

/** `"<name>" [(<role>)]` and nothing after. */
function readTarget(text: string): ActionTarget | { problem: string } {
  if (!text.startsWith('"')) return { problem: 'the target must be a quoted name, like "Search"' };
  const run = quotedRun(text);
  if ('problem' in run) return run;
  if (run.value === '') return { problem: 'the target name is empty' };
  const rest = run.rest.trim();
  if (rest === '') return { name: run.value };
  const role = ROLE.exec(rest);
  if (!role) return { problem: `unexpected text after the target name: ${rest}` };
  return { name: run.value, role: role[1]! };
}

function parseClick(rest: string): ActionTextParse {
  // An unquoted name is prose ("click 回复 and submit"), for the model to carry out.
  if (!rest.startsWith('"')) return failure('not-executable', NOT_EXECUTABLE);
  const target = readTarget(rest);
  if ('problem' in target) return failure('malformed-target', `click: ${target.problem}`);
  return { ok: true, command: { verb: 'click', target } };
}

function parseType(rest: string): ActionTextParse {
  let value: TypedValue;
  let after: string;
  if (rest.startsWith('"')) {
    const run = quotedRun(rest);
    if ('problem' in run) return failure('malformed-value', `type: ${run.problem}`);
    if (run.value === '') return failure('malformed-value', 'type: the value to type is empty');
    value = { kind: 'literal', text: run.value };
    after = run.rest;
  } else if (rest.startsWith('{')) {
    const ref = INPUT_REF.exec(rest);
    if (!ref)
      return failure('malformed-value', 'type: an input reference is {name}, name = [A-Za-z_][A-Za-z0-9_]*');
    value = { kind: 'input', name: ref[1]! };
    after = rest.slice(ref[0].length);
  } else return failure('not-executable', NOT_EXECUTABLE);
  const into = INTO.exec(after);
  if (!into) return failure('malformed-value', 'type: the value must be followed by " into " and the target');
  const target = readTarget(after.slice(into[0].length));
  if ('problem' in target) return failure('malformed-target', `type: ${target.problem}`);
  return { ok: true, command: { verb: 'type', value, target } };
}

/** Parses an `action:` step's text into a command, or says why it cannot run by itself. */
export function parseActionText(text: string): ActionTextParse {
  const trimmed = text.trim();
  const navigate = NAVIGATE.exec(trimmed);
  if (navigate) return { ok: true, command: { verb: 'navigate', url: navigate[1]!.trim() } };
  const verb = /^(click|type)\s+/.exec(trimmed);
  if (!verb) return failure('not-executable', NOT_EXECUTABLE);
  const rest = trimmed.slice(verb[0].length);
  return verb[1] === 'click' ? parseClick(rest) : parseType(rest);
}
