import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * For the recorder's "never a typed value" tests: strings a person types, distinctive enough
 * that finding one anywhere means it was kept, and the search for them in files.
 */
export const TYPED = {
  name: 'Zebra-Quokka-4417',
  search: 'Narwhal-Tapir-9023',
  password: 'Hunter2-Ocelot-7781',
  code: '864213',
  pin: '5591',
  bio: 'Axolotl-Pangolin-3350',
  notes: 'Wombat-Kinkajou-6642',
  query: 'Marmoset-Ibex-1188',
  url: 'Capybara-Okapi-2206',
} as const;

/** The files under `dirs` (recursively) that hold `value`, as UTF-8 or as UTF-16. */
export async function filesHolding(value: string, dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    for (const entry of entries.filter((e) => e.isFile())) {
      const file = path.join(entry.parentPath, entry.name);
      // A file may go while the folder is read (a browser's lock, a journal).
      const bytes = await readFile(file).catch(() => null);
      if (bytes !== null && (bytes.includes(value) || bytes.includes(Buffer.from(value, 'utf16le'))))
        found.push(file);
    }
  }
  return found;
}
