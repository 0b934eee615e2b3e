import { z } from '@vmark/sdk';

/** A saved session's name: `[A-Za-z0-9._-]`, 1–128 characters after trimming (vmark-notes §3.1). */
export const HANDLE = /^[A-Za-z0-9._-]{1,128}$/;

export const handleArg = (action: 'session_save' | 'session_load') => {
  const message = `${action} requires a 'handle' matching [A-Za-z0-9._-] (1..128)`;
  return z.string({ error: message }).trim().regex(HANDLE, { error: message });
};
