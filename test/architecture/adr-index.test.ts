import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ADR = fileURLToPath(new URL('../../docs/adr/', import.meta.url));

it('lists every decision record in docs/adr/README.md, each number once', () => {
  const records = readdirSync(ADR).filter((name) => /^\d{4}-.+\.md$/.test(name));
  const index = readFileSync(`${ADR}README.md`, 'utf8');
  expect(records.filter((name) => !index.includes(`](${name})`))).toEqual([]);
  const numbers = records.map((name) => name.slice(0, 4));
  expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
});
