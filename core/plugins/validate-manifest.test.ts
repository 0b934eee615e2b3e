import { describe, expect, it } from 'vitest';
import type { Diagnostic } from './diagnostics.js';
import { validateManifest } from './validate-manifest.js';

const HOST_API = '1.0.0';

/** A manifest that passes every check; each test breaks exactly one thing. */
function validManifest(): Record<string, unknown> {
  return {
    id: 'notes',
    name: 'Notes',
    version: '1.2.3',
    description: 'A plugin used by the tests',
    engines: { host: '^1.0.0' },
    main: 'dist/index.js',
    dependencies: { document: '^0.1.0' },
    contributes: {
      tools: [
        {
          name: 'notes',
          title: 'Notes',
          annotations: {
            readOnlyHint: false,
            destructiveHint: true,
            idempotentHint: false,
            openWorldHint: false,
          },
          actions: ['read', 'write'],
        },
      ],
      kinds: [{ id: 'note', title: 'Note' }],
      panels: [{ id: 'notes-panel', title: 'Notes', slot: 'sidebar' }],
      settings: {
        'notes.enabled': { type: 'boolean', default: true, title: 'Enable notes' },
        'notes.style': { type: 'enum', enum: ['plain', 'fancy'], default: 'plain', title: 'Style' },
        'notes.limit': { type: 'integer', default: 2, minimum: 0, maximum: 5, title: 'Limit' },
        'notes.signature': { type: 'string', default: '', maxLength: 40, title: 'Signature' },
      },
      extensionPoints: [{ id: 'noteFormatters' }],
      siteExtractors: [{ id: 'x' }],
    },
  };
}

function withChange(change: (m: Record<string, unknown>) => void): Record<string, unknown> {
  const manifest = validManifest();
  change(manifest);
  return manifest;
}

function firstTool(m: Record<string, unknown>): Record<string, unknown> {
  const contributes = m.contributes as { tools: Record<string, unknown>[] };
  return contributes.tools[0]!;
}

const errorsOf = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity === 'error');

/** Exactly one diagnostic, an error, whose message matches. */
function expectOneError(raw: unknown, message: RegExp | string): Diagnostic {
  const { diagnostics } = validateManifest(raw, HOST_API);
  expect(diagnostics).toHaveLength(1);
  const [only] = diagnostics;
  expect(only!.severity).toBe('error');
  if (typeof message === 'string') expect(only!.message).toContain(message);
  else expect(only!.message).toMatch(message);
  return only!;
}

describe('validateManifest', () => {
  describe('a valid manifest', () => {
    it('has no diagnostics and comes back parsed', () => {
      const check = validateManifest(validManifest(), HOST_API);
      expect(check.diagnostics).toEqual([]);
      expect(check.manifest).toMatchObject({ id: 'notes', version: '1.2.3', main: 'dist/index.js' });
      expect(check.manifest?.contributes?.tools?.[0]?.actions).toEqual(['read', 'write']);
    });

    it('needs only id, name, version, engines.host and main', () => {
      const check = validateManifest(
        { id: 'tiny', name: 'Tiny', version: '0.0.1', engines: { host: '*' }, main: 'index.js' },
        HOST_API,
      );
      expect(check.diagnostics).toEqual([]);
    });

    it('accepts main paths that stay inside the folder, such as "./x.js" and "a/../x.js"', () => {
      for (const main of ['./x.js', 'a/../x.js', 'lib/deep/index.js']) {
        expect(validateManifest({ ...validManifest(), main }, HOST_API).diagnostics).toEqual([]);
      }
    });

    it('is pure: it neither mutates its input nor throws on odd input', () => {
      const raw = validManifest();
      const copy = structuredClone(raw);
      validateManifest(raw, HOST_API);
      expect(raw).toEqual(copy);
      for (const odd of [undefined, null, 42, 'manifest', [], true]) {
        expect(() => validateManifest(odd, HOST_API)).not.toThrow();
      }
    });
  });

  describe('the id', () => {
    it.each(['Notes', 'my_plugin', 'my plugin', 'ns/plugin', 'dots.in.id', ''])(
      'refuses %j: ids are lower-case letters, digits and hyphens',
      (id) => {
        const diagnostic = expectOneError(
          withChange((m) => (m.id = id)),
          `id "${id}" must match`,
        );
        expect(diagnostic.message).toContain('[a-z0-9-]');
      },
    );
  });

  describe('the version', () => {
    it.each(['1.0', 'one', '1.0.0.0', 'latest'])('refuses %j as not semver', (version) => {
      expectOneError(
        withChange((m) => (m.version = version)),
        `version "${version}" is not a semver version`,
      );
    });
  });

  describe('engines.host', () => {
    it('refuses a string that is not a semver range', () => {
      expectOneError(
        withChange((m) => (m.engines = { host: 'not a range!' })),
        'engines.host "not a range!" is not a semver range',
      );
    });

    it('refuses a range the host API does not satisfy, naming both the host API version and the range', () => {
      const diagnostic = expectOneError(
        withChange((m) => (m.engines = { host: '^2.0.0' })),
        /not compatible/,
      );
      expect(diagnostic.message).toContain('1.0.0');
      expect(diagnostic.message).toContain('^2.0.0');
    });

    it('judges compatibility against the version it is given', () => {
      const raw = withChange((m) => (m.engines = { host: '^2.0.0' }));
      expect(validateManifest(raw, '2.3.0').diagnostics).toEqual([]);
    });

    it('still returns the parsed manifest of an incompatible plugin, so it can be listed', () => {
      const check = validateManifest(
        withChange((m) => (m.engines = { host: '>=5' })),
        HOST_API,
      );
      expect(check.manifest?.id).toBe('notes');
      expect(errorsOf(check.diagnostics)).toHaveLength(1);
    });

    it('is required', () => {
      expectOneError(
        withChange((m) => delete m.engines),
        /engines/,
      );
    });
  });

  describe('main', () => {
    it.each(['../x.js', '/abs.js', 'a/../../x.js', '..', '..\\x.js', '\\abs.js'])(
      'refuses %j, which escapes the plugin folder',
      (main) => {
        expectOneError(
          withChange((m) => (m.main = main)),
          `main "${main}" must be a path inside the plugin folder`,
        );
      },
    );

    it('refuses an empty main', () => {
      expectOneError(
        withChange((m) => (m.main = '')),
        /main/,
      );
    });
  });

  describe('dependencies', () => {
    it('refuses a plugin that depends on itself', () => {
      expectOneError(
        withChange((m) => (m.dependencies = { notes: '^1.0.0' })),
        'a plugin cannot depend on itself',
      );
    });

    it('refuses a dependency whose range is not a semver range', () => {
      expectOneError(
        withChange((m) => (m.dependencies = { document: 'banana' })),
        'dependency "document" has an invalid range "banana"',
      );
    });

    it('refuses a dependency id that is not a plugin id', () => {
      expectOneError(
        withChange((m) => (m.dependencies = { Document: '^1.0.0' })),
        'dependency id "Document" must match',
      );
    });
  });

  describe('contributed commands', () => {
    const withCommands = (...names: string[]) =>
      withChange((m) => {
        (m.contributes as Record<string, unknown>).commands = names.map((name) => ({ name, summary: 'x' }));
      });

    it('accepts lower-case command names', () => {
      expect(validateManifest(withCommands('ledger', 'sync-now'), HOST_API).diagnostics).toEqual([]);
    });

    it('refuses a command contributed twice', () => {
      expectOneError(withCommands('ledger', 'ledger'), 'command "ledger" is contributed twice');
    });

    it("refuses a command that would shadow one of vmark's own", () => {
      expectOneError(withCommands('mcp'), 'command "mcp" is one of vmark\'s own');
    });

    it('refuses names a shell would not pass as one word or that look like options', () => {
      for (const bad of ['--help', 'Ledger', 'two words', '', 'a/b'])
        expect(errorsOf(validateManifest(withCommands(bad), HOST_API).diagnostics)).not.toEqual([]);
    });
  });

  describe('contributed tools', () => {
    it('refuses two tools with the same name', () => {
      const raw = withChange((m) => {
        const contributes = m.contributes as { tools: unknown[] };
        contributes.tools.push(structuredClone(contributes.tools[0]));
      });
      expectOneError(raw, 'tool "notes" is contributed twice');
    });

    it('reports a name contributed three times once', () => {
      const raw = withChange((m) => {
        const contributes = m.contributes as { tools: unknown[] };
        contributes.tools.push(structuredClone(contributes.tools[0]), structuredClone(contributes.tools[0]));
      });
      expectOneError(raw, 'tool "notes" is contributed twice');
    });

    it('refuses a tool that lists an action twice', () => {
      expectOneError(
        withChange((m) => (firstTool(m).actions = ['read', 'write', 'read'])),
        'tool "notes" repeats an action',
      );
    });

    it('refuses a tool that is both read-only and destructive', () => {
      expectOneError(
        withChange(
          (m) =>
            (firstTool(m).annotations = {
              readOnlyHint: true,
              destructiveHint: true,
              idempotentHint: true,
              openWorldHint: false,
            }),
        ),
        'tool "notes" cannot be both read-only and destructive',
      );
    });

    it('refuses a tool that leaves out one of the four annotations', () => {
      expectOneError(
        withChange(
          (m) =>
            (firstTool(m).annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true }),
        ),
        /openWorldHint/,
      );
    });

    it('refuses a tool without actions', () => {
      expectOneError(
        withChange((m) => (firstTool(m).actions = [])),
        /actions/,
      );
    });

    it('refuses a tool name MCP would not accept', () => {
      expectOneError(
        withChange((m) => (firstTool(m).name = 'has space')),
        /name/,
      );
    });
  });

  describe('unknown fields', () => {
    it('warns about an unknown top-level field but does not refuse the manifest', () => {
      const check = validateManifest({ ...validManifest(), homepage: 'https://example.com' }, HOST_API);
      expect(check.manifest?.id).toBe('notes');
      expect(check.diagnostics).toEqual([
        { severity: 'warning', message: 'unknown manifest field "homepage" is ignored' },
      ]);
    });

    it('lets contributions to other plugins\u2019 extension points through without a warning', () => {
      expect(validateManifest(validManifest(), HOST_API).diagnostics).toEqual([]);
    });
  });

  describe('input that is not a manifest object', () => {
    it.each([
      ['null', null],
      ['a string', 'manifest'],
      ['a number', 7],
      ['an array', [validManifest()]],
      ['undefined', undefined],
    ])('refuses %s with one error about the root and no manifest', (_label, raw) => {
      const check = validateManifest(raw, HOST_API);
      expect(check.manifest).toBeUndefined();
      expect(check.diagnostics).toHaveLength(1);
      expect(check.diagnostics[0]).toMatchObject({ severity: 'error' });
      expect(check.diagnostics[0]!.message).toMatch(/^manifest \(root\): /);
    });

    it('names every missing required field of an empty object', () => {
      const check = validateManifest({}, HOST_API);
      expect(check.manifest).toBeUndefined();
      const messages = errorsOf(check.diagnostics).map((d) => d.message);
      for (const field of ['id', 'name', 'version', 'engines', 'main']) {
        expect(messages.some((m) => m.startsWith(`manifest ${field}:`))).toBe(true);
      }
    });

    it('names the path of a field of the wrong type', () => {
      expectOneError(
        withChange((m) => (m.version = 1)),
        /^manifest version: /,
      );
    });
  });
  describe('contributes.settings', () => {
    const withSetting = (key: string, declaration: unknown) =>
      withChange((m) => {
        (m.contributes as { settings: Record<string, unknown> }).settings = { [key]: declaration };
      });

    it('refuses a declaration without a title or a default, or of an unknown type', () => {
      expectOneError(
        withSetting('notes.on', { type: 'boolean', default: true }),
        /^manifest contributes\.settings\.notes\.on\.title: /,
      );
      expectOneError(
        withSetting('notes.on', { type: 'boolean', title: 'On' }),
        /contributes\.settings\.notes\.on\.default/,
      );
      expectOneError(
        withSetting('notes.on', { type: 'colour', default: 'red', title: 'On' }),
        /contributes\.settings\.notes\.on/,
      );
      expectOneError(
        withSetting('notes.on', { type: 'boolean', default: true, title: 'On', secret: 1 }),
        /notes\.on/,
      );
    });

    it('refuses a default of the wrong type', () => {
      expectOneError(
        withSetting('notes.on', { type: 'boolean', default: 'yes', title: 'On' }),
        /notes\.on\.default/,
      );
    });

    it.each([
      [
        'a key without a section',
        'enabled',
        { type: 'boolean', default: true, title: 'On' },
        'a key is dotted words',
      ],
      [
        'a key with odd characters',
        'notes.my-key',
        { type: 'boolean', default: true, title: 'On' },
        'a key is dotted words',
      ],
      [
        'an enum default outside its values',
        'notes.style',
        { type: 'enum', enum: ['a', 'b'], default: 'c', title: 'Style' },
        'the default "c" is not one of "a", "b"',
      ],
      [
        'an enum that repeats a value',
        'notes.style',
        { type: 'enum', enum: ['a', 'a'], default: 'a', title: 'S' },
        'repeats a value',
      ],
      [
        'an integer default out of bounds',
        'notes.limit',
        { type: 'integer', default: 9, minimum: 0, maximum: 2, title: 'Limit' },
        'the default 9 is above the maximum 2',
      ],
      [
        'bounds the wrong way round',
        'notes.limit',
        { type: 'integer', default: 1, minimum: 3, maximum: 0, title: 'Limit' },
        'minimum 3 is above maximum 0',
      ],
      [
        'a string default that is too long',
        'notes.sig',
        { type: 'string', default: 'abcdef', maxLength: 3, title: 'Sig' },
        'longer than 3 characters',
      ],
    ])('refuses %s', (_label, key, declaration, message) => {
      expectOneError(withSetting(key, declaration), message);
    });

    it('refuses a key that lies inside another', () => {
      const check = validateManifest(
        withChange((m) => {
          (m.contributes as { settings: unknown }).settings = {
            'notes.style': { type: 'boolean', default: true, title: 'A' },
            'notes.style.deep': { type: 'boolean', default: true, title: 'B' },
          };
        }),
        HOST_API,
      );
      expect(check.diagnostics.map((d) => d.message)).toEqual([
        'setting "notes.style.deep" lies inside setting "notes.style"',
      ]);
    });
  });
});
