import { INPUT_NAME, type Workflow } from './workflow-ir.js';

/*
 * IR → source, in the recorder's output format (vmark-notes §4.3): the front matter's `site:`,
 * `inputs: [a, b]` only when there are inputs, `trigger:` only when set, then one `N. kind: text`
 * line a step, the file ending with a newline. Parsing the output gives the same IR back, line
 * numbers aside.
 */

const LINE_BREAK = /[\r\n]/;

/** A value that would not come back as it went out: empty, padded, or breaking its line. */
function assertOneLine(what: string, value: string): void {
  if (value === '' || value.trim() !== value || LINE_BREAK.test(value))
    throw new Error(`${what} must be one non-empty trimmed line to print (got ${JSON.stringify(value)})`);
}

export function printWorkflow(workflow: Workflow): string {
  assertOneLine('site', workflow.site);
  const lines = ['---', `site: ${workflow.site}`];
  for (const name of workflow.inputs)
    if (!INPUT_NAME.test(name)) throw new Error(`input name ${JSON.stringify(name)} cannot be printed`);
  if (workflow.inputs.length > 0) lines.push(`inputs: [${workflow.inputs.join(', ')}]`);
  if (workflow.trigger !== undefined) {
    assertOneLine('trigger', workflow.trigger);
    lines.push(`trigger: ${workflow.trigger}`);
  }
  lines.push('---');
  workflow.steps.forEach((step, i) => {
    assertOneLine(`step ${i + 1}`, step.text);
    lines.push(`${i + 1}. ${step.kind}: ${step.text}`);
  });
  return lines.join('\n') + '\n';
}
