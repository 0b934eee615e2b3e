import { describe, expect, it } from 'vitest';
import {
  NEWER_RUNNER_LABELS,
  dropNewerRunnerLabelFalsePositives,
  unknownRunnerLabel,
} from './runner-labels.js';
import type { WorkflowDiagnostic } from './types.js';

const unknown = (label: string, kind = 'runner-label'): WorkflowDiagnostic => ({
  line: 1,
  col: 1,
  message: `label "${label}" is unknown. available labels are "windows-latest", "ubuntu-22.04". if it is a custom label for self-hosted runner, set list of labels in actionlint.yaml config file`,
  severity: 'error',
  kind,
});

describe('dropNewerRunnerLabelFalsePositives', () => {
  it('drops unknown-label reports for current GitHub-hosted labels the old rules miss', () => {
    for (const label of ['ubuntu-24.04', 'ubuntu-24.04-arm', 'macos-14', 'macos-15', 'windows-2025']) {
      expect(NEWER_RUNNER_LABELS.has(label)).toBe(true);
      expect(dropNewerRunnerLabelFalsePositives([unknown(label)])).toStrictEqual([]);
    }
  });

  it('compares labels case-insensitively, as actionlint does', () => {
    expect(dropNewerRunnerLabelFalsePositives([unknown('Ubuntu-24.04')])).toStrictEqual([]);
  });

  it('keeps typos, custom labels, retired labels and every other diagnostic', () => {
    const kept = [
      unknown('ubuntu-24.4'),
      unknown('ubuntu-2404'),
      unknown('my-gpu-runner'),
      unknown('macos-13'),
      unknown('ubuntu-24.04', 'expression'),
      {
        line: 2,
        col: 3,
        message: 'label "ubuntu-24.04" conflicts with label "windows-2022"',
        severity: 'error',
        kind: 'runner-label',
      } as const,
    ];
    expect(dropNewerRunnerLabelFalsePositives(kept)).toStrictEqual(kept);
  });

  it('reads the label out of the message only for runner-label diagnostics', () => {
    expect(unknownRunnerLabel(unknown('ubuntu-24.04'))).toBe('ubuntu-24.04');
    expect(unknownRunnerLabel(unknown('ubuntu-24.04', 'syntax-check'))).toBeNull();
  });
});
