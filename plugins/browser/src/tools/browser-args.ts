/** Argument schemas of the browser tools, with the original's messages (vmark-notes §3). */
import { optionalId, z } from '@vmark/sdk';
import { MAX_WAIT_MS } from '../navigation/navigation-result.js';

const TIMEOUT_MESSAGE = `timeoutMs must be an integer from 1 to ${MAX_WAIT_MS}`;

export const timeoutArg = () =>
  z
    .number({ error: TIMEOUT_MESSAGE })
    .int({ error: TIMEOUT_MESSAGE })
    .min(1, { error: TIMEOUT_MESSAGE })
    .max(MAX_WAIT_MS, { error: TIMEOUT_MESSAGE })
    .optional();

export const tabArg = () => optionalId('tabId', 'tab');

export const urlArg = () =>
  z
    .string({ error: 'url (string) is required' })
    .refine((value) => value.trim() !== '', { error: 'url must be a non-empty URL' });

/**
 * An element's ref from `browser_read read`. One schema for every action of the tool (the tool
 * layer requires it); each action says what a blank ref means for it.
 */
export const refArg = () =>
  z.string({ error: 'ref must be a string (e.g. "e12", from browser_read read)' }).optional();
