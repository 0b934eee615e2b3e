import { describe, expect, it } from 'vitest';
import { compareEntries, createEntry, isKind, parseLine, serializeEntry, type LedgerEntry } from './entry.js';
import { formatTime, parseTime } from './time.js';

/** Hand-written lines (literal JSON, as the original kernel writes them). */
const TRANSFORMATION =
  '{"format":0,"id":"0190a000-0001-7000-8000-000000000001","kind":"transformation","time":"2026-07-18T09:30:12.415Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0001-7000-8000-0000000000e1","body":{"inputs":[{"object":"0190a000-00b1-7000-8000-000000000001","revision":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","role":"direct","kind":"dependency"}],"outputs":[{"object":"0190a000-00b1-7000-8000-000000000002","revision":"rev1:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","content_hash":"sha256:1111111111111111111111111111111111111111111111111111111111111111","parents":["rev1:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"]}],"agent":{"type":"model","id":"claude"},"intent":{"kind":"operator:rename-character","summary":"rename"},"confidence":"inferred"}}';
const DELEGATION =
  '{"format":0,"id":"0190a000-0002-7000-8000-000000000002","kind":"delegation","time":"2026-07-18T09:30:13.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0002-7000-8000-0000000000e2","body":{"delegation":"0190a000-00d1-7000-8000-000000000001","actor":{"type":"human","id":"elena"},"delegate":{"type":"external","id":"claude-code"},"scope":["resolve.waive"],"expires":"2026-07-25T09:30:13.000Z","supersedes":null}}';
const AGENT_WAIVER =
  '{"format":0,"id":"0190a000-0003-7000-8000-000000000003","kind":"waiver","time":"2026-07-18T09:30:14.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0003-7000-8000-0000000000e3","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"upstream_object":"0190a000-00b1-7000-8000-000000000001","pinned":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","resolved_against":"rev1:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","actor":{"type":"agent","id":"claude-code"},"reason":"cosmetic upstream change","expires":null,"delegation":"0190a000-00d1-7000-8000-000000000001"}}';
const CHECK =
  '{"format":0,"id":"0190a000-0004-7000-8000-000000000004","kind":"check-result","time":"2026-07-18T09:30:15.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0004-7000-8000-0000000000e4","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"pinned":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","checked_against":"rev1:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee","verdict":"unknown","model":"m","prompt_version":"check-v1","evidence":[{"object":"0190a000-00b1-7000-8000-000000000001","quote":"q","loc":"L120-L134"}],"confidence":0.83,"context":"00000000-0000-0000-0000-000000000000","claims_fingerprint":"sha256:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff","downgraded":{"verdict":"contradiction","reason":"below threshold"}}}';
const CLAIM =
  '{"format":0,"id":"0190a000-0005-7000-8000-000000000005","kind":"claim","time":"2026-07-18T09:30:16.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0005-7000-8000-0000000000e5","body":{"claim":"0190a000-00c1-7000-8000-000000000001","statement":"Elena is left-handed","valid_at":"2026-07-18T09:30:16.000Z","invalid_at":null,"established_by":[{"object":"0190a000-00b1-7000-8000-000000000001","revision":"rev1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}],"supersedes":null,"maturity":"draft","actor":{"type":"human","id":"elena"}}}';
const REGISTERED =
  '{"format":0,"id":"0190a000-0006-7000-8000-000000000006","kind":"object-registered","time":"2026-07-18T09:30:17.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0006-7000-8000-0000000000e6","body":{"object":"0190a000-00b1-7000-8000-000000000009","path":"img/map.png","schema":null,"derived_from":[]}}';
const JUDGMENT =
  '{"format":0,"id":"0190a000-0007-7000-8000-000000000007","kind":"flag-judgment","time":"2026-07-18T09:30:18.000Z","writer":"0190a000-0000-7000-8000-00000000000a","idem":"0190a000-0007-7000-8000-0000000000e7","body":{"edge":{"txf":"0190a000-0001-7000-8000-000000000001","input":0},"judgment":"noise","note":"typo fix upstream"}}';

const ok = (line: string): LedgerEntry => {
  const parsed = parseLine(line, 1);
  if (!('ok' in parsed)) throw new Error(`expected ok, got ${JSON.stringify(parsed)}`);
  return parsed.ok;
};
const reason = (line: string): string => {
  const parsed = parseLine(line, 1);
  if (!('quarantine' in parsed)) throw new Error(`expected quarantine, got ${JSON.stringify(parsed)}`);
  return parsed.quarantine;
};
const edit = (line: string, change: (v: Record<string, unknown>) => void): string => {
  const value = JSON.parse(line) as Record<string, unknown>;
  change(value);
  return JSON.stringify(value);
};
const body = (v: Record<string, unknown>) => v['body'] as Record<string, unknown>;

describe('parseLine', () => {
  it('accepts every known kind written by hand, keeping the parsed JSON as is', () => {
    for (const line of [TRANSFORMATION, DELEGATION, AGENT_WAIVER, CHECK, CLAIM, REGISTERED, JUDGMENT]) {
      expect(ok(line)).toEqual(JSON.parse(line));
    }
    const entry = ok(TRANSFORMATION);
    expect(isKind(entry, 'transformation') && entry.body.outputs[0]?.content_hash).toBe(
      `sha256:${'1'.repeat(64)}`,
    );
  });

  it('reports a later format as such, judging nothing else about the line', () => {
    expect(parseLine('{"format":7}', 3)).toEqual({ futureFormat: true, lineNumber: 3 });
    expect(reason('{"format":-1}')).toMatch(/^invalid envelope at format/);
    expect(reason('{"format":"1"}')).toMatch(/^invalid envelope at format/);
  });

  it('quarantines invalid JSON and invalid envelopes with short one-line reasons', () => {
    expect(reason('not json')).toBe('invalid JSON');
    expect(reason('[1,2]')).toBe('invalid envelope: not a JSON object');
    expect(reason(edit(CLAIM, (v) => (v['id'] = 'nope')))).toBe('invalid envelope at id: not a UUID');
    expect(reason(edit(CLAIM, (v) => (v['time'] = '2026-02-30T00:00:00.000Z')))).toBe(
      'invalid envelope at time: not an RFC 3339 date-time',
    );
    expect(reason(edit(CLAIM, (v) => (v['body'] = [])))).toMatch(/^invalid envelope at body/);
  });

  it('quarantines schema-invalid bodies of known kinds', () => {
    expect(reason(edit(TRANSFORMATION, (v) => (body(v)['outputs'] = [])))).toMatch(
      /^invalid transformation body at outputs/,
    );
    expect(
      reason(
        edit(
          TRANSFORMATION,
          (v) => ((body(v)['intent'] as Record<string, unknown>)['kind'] = 'operator:Bad'),
        ),
      ),
    ).toMatch(/^invalid transformation body at intent\.kind/);
    expect(reason(edit(AGENT_WAIVER, (v) => (body(v)['reason'] = null)))).toMatch(
      /^invalid waiver body at reason/,
    );
    expect(reason(edit(AGENT_WAIVER, (v) => delete body(v)['delegation']))).toBe(
      'invalid waiver body at delegation: a non-human actor must carry delegation',
    );
    expect(reason(edit(DELEGATION, (v) => (body(v)['scope'] = ['claims.edit'])))).toMatch(
      /^invalid delegation body at scope\.0/,
    );
    expect(reason(edit(CHECK, (v) => (body(v)['confidence'] = 1.5)))).toMatch(
      /^invalid check-result body at confidence/,
    );
    expect(reason(edit(JUDGMENT, (v) => (body(v)['note'] = 'é'.repeat(2049))))).toBe(
      'invalid flag-judgment body at note: note exceeds 4 KiB',
    );
  });

  it('accepts an empty delegation scope (a revocation) and fields added by a newer writer', () => {
    expect(ok(edit(DELEGATION, (v) => (body(v)['scope'] = [])))).toBeDefined();
    expect(body(ok(edit(CLAIM, (v) => (body(v)['anchor'] = { line: 3 })))).anchor).toEqual({ line: 3 });
    // `…|null` fields may also be absent, as with the original's serde Option fields.
    expect(ok(edit(CLAIM, (v) => delete body(v)['invalid_at']))).toBeDefined();
  });

  it('quarantines lines over the bound, counted in UTF-8 bytes', () => {
    const bytes = Buffer.byteLength(CLAIM, 'utf8');
    expect('ok' in parseLine(CLAIM, 1, { maxLineBytes: bytes })).toBe(true);
    expect(parseLine(CLAIM, 1, { maxLineBytes: bytes - 1 })).toEqual({
      quarantine: `line exceeds ${bytes - 1} bytes`,
      lineNumber: 1,
    });
  });
});

describe('order and time', () => {
  it('orders by the instant of time, then id; offsets and extra digits are read as instants', () => {
    const at = (time: string, id: string) => ({ ...ok(CLAIM), time, id });
    const a = at('2026-07-18T09:30:00.000Z', '0190a000-0000-7000-8000-00000000000b');
    const b = at('2026-07-18T11:30:00+02:00', '0190a000-0000-7000-8000-00000000000c');
    const c = at('2026-07-18T09:30:00.0000001Z', '0190a000-0000-7000-8000-00000000000a');
    const d = at('2026-07-18T09:29:59.999Z', '0190a000-0000-7000-8000-00000000000f');
    expect([c, b, a, d].sort(compareEntries)).toEqual([d, a, b, c]);
  });

  it('formats writer time as RFC 3339 UTC with millis and parses years below 100 literally', () => {
    expect(formatTime(new Date(Date.UTC(2026, 6, 18, 9, 30, 12, 5)))).toBe('2026-07-18T09:30:12.005Z');
    expect(parseTime('0050-01-01T00:00:00Z')?.epochMs).toBe(Date.parse('0050-01-01T00:00:00Z'));
    expect(parseTime('2024-02-29T23:59:59.999Z')).not.toBeNull();
    expect(parseTime('2026-07-18T24:00:00Z')).toBeNull();
  });
});

describe('createEntry / serializeEntry', () => {
  it('builds an envelope from injected id generator and clock', () => {
    let n = 0;
    const entry = createEntry(
      'navigation',
      { git: { op: 'detach', from: 'a1', to: 'b2' } },
      {
        writer: '0190a000-0000-7000-8000-00000000000a',
        newId: () => `0190a000-0000-7000-8000-00000000000${++n}`,
        now: () => new Date('2026-07-18T09:30:12.415Z'),
      },
    );
    expect(entry).toEqual({
      format: 0,
      id: '0190a000-0000-7000-8000-000000000001',
      kind: 'navigation',
      time: '2026-07-18T09:30:12.415Z',
      writer: '0190a000-0000-7000-8000-00000000000a',
      idem: '0190a000-0000-7000-8000-000000000002',
      body: { git: { op: 'detach', from: 'a1', to: 'b2' } },
    });
    expect(serializeEntry(entry)).toEqual({ ok: true, line: JSON.stringify(entry) });
  });
});
