import { describe, expect, it } from 'vitest';
import { workflowFileKind } from './workflow-file-kind.js';

describe('workflowFileKind', () => {
  it('claims *.workflow.md files, in any case, and nothing else', () => {
    const claims = (filePath: string | null) =>
      workflowFileKind.detect(filePath, '---\nsite: s\n---\ngoal: g\n');
    expect(claims('/vault/login.workflow.md')).toBe(true);
    expect(claims('C:\\vault\\Login.WORKFLOW.MD')).toBe(true);
    expect(claims('/vault/workflow.md')).toBe(false);
    expect(claims('/vault/login.workflow.md.bak')).toBe(false);
    expect(claims('/vault/.github/workflows/ci.yml')).toBe(false);
    expect(claims(null)).toBe(false);
  });

  it('outranks the Markdown kind, which claims every .md file at priority 0', () => {
    expect(workflowFileKind.priority).toBeGreaterThan(0);
  });
});
