import { describe, expect, it } from 'vitest';
import { serverInstructions } from './instructions.js';

describe('serverInstructions', () => {
  it('puts each present tool’s words between the host’s introduction and its approvals rule', () => {
    const text = serverInstructions([
      { instructions: 'Orient with notes.list.' },
      {},
      { instructions: 'Edit notes with notes.write.' },
    ]);
    expect(text).toMatch(/^VMark: .* Orient with notes\.list\. Edit notes with notes\.write\. Approvals: /);
    expect(text).toMatch(/WAIT; do not retry before they have approved/);
  });

  it('names no tool when none is present', () => {
    expect(serverInstructions([])).not.toMatch(/`/);
  });
});
