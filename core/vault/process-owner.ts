/**
 * Who left a lock or a temp file behind, and whether they are gone: a process is named by
 * its machine, its boot and its pid, so that a file left by a process that crashed (or by
 * a machine that has rebooted since) can be cleaned up, while one of a live process — or of
 * another machine sharing the folder — is left alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { errorCode } from '@vmark/sdk';

export interface ProcessOwner {
  /** A short hash of the machine's name. */
  readonly host: string;
  /** A short hash of the machine's boot id; empty where the platform has none. */
  readonly boot: string;
  readonly pid: number;
}

/** `<host>-<boot>-<pid>`: letters, digits and dashes only, so it fits in a file name. */
const OWNER_TAG = /^([0-9a-f]{6})-([0-9a-f]{6}|)-([1-9][0-9]{0,9})$/;

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 6);

function bootId(): string {
  try {
    // Linux: a new value at every boot, so a pid of an earlier boot is never taken for a live one.
    return shortHash(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  } catch {
    return '';
  }
}

let current: ProcessOwner | undefined;

/** This process. */
export function thisProcess(): ProcessOwner {
  current ??= { host: shortHash(os.hostname()), boot: bootId(), pid: process.pid };
  return current;
}

export function ownerTag(owner: ProcessOwner = thisProcess()): string {
  return `${owner.host}-${owner.boot}-${owner.pid}`;
}

export function parseOwnerTag(tag: string): ProcessOwner | null {
  const match = OWNER_TAG.exec(tag);
  if (!match) return null;
  return { host: match[1]!, boot: match[2]!, pid: Number(match[3]) };
}

/**
 * Whether the owner has certainly ended: it ran on this machine and either in an earlier
 * boot or under a pid that no longer exists. Another machine's process is never judged.
 */
export function ownerIsGone(owner: ProcessOwner): boolean {
  const self = thisProcess();
  if (owner.host !== self.host) return false;
  if (owner.boot !== '' && self.boot !== '' && owner.boot !== self.boot) return true;
  return !processAlive(owner.pid);
}

/** Signal 0 checks that the process exists without touching it; EPERM means it exists as another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== 'ESRCH';
  }
}
