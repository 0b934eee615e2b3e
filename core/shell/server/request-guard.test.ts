import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RequestGuard } from './request-guard.js';

const guard = new RequestGuard(4711, 'secret-token');
const check = (url: string, headers: Record<string, string>) =>
  guard.refusal({ headers } as IncomingMessage, new URL(url, 'http://127.0.0.1'))?.status ?? 200;

describe('RequestGuard', () => {
  it('lets in our own host and origin with the token', () => {
    expect(check('/?token=secret-token', { host: '127.0.0.1:4711' })).toBe(200);
    expect(check('/ws?token=secret-token', { host: 'localhost:4711', origin: 'http://localhost:4711' })).toBe(
      200,
    );
  });

  it('refuses a missing or wrong token', () => {
    expect(check('/', { host: '127.0.0.1:4711' })).toBe(401);
    expect(check('/?token=secret-toke', { host: '127.0.0.1:4711' })).toBe(401);
    expect(check('/?token=secret-token%20', { host: '127.0.0.1:4711' })).toBe(401);
  });

  it('refuses another host name (DNS rebinding), port or origin', () => {
    expect(check('/?token=secret-token', { host: 'evil.example:4711' })).toBe(403);
    expect(check('/?token=secret-token', { host: '127.0.0.1:4712' })).toBe(403);
    expect(check('/?token=secret-token', {})).toBe(403);
    expect(check('/?token=secret-token', { host: '127.0.0.1:4711', origin: 'http://evil.example' })).toBe(
      403,
    );
    expect(check('/?token=secret-token', { host: '127.0.0.1:4711', origin: 'null' })).toBe(403);
  });
});
