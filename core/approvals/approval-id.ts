import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 8;

/** What `vmark approvals allow|deny` accepts: `apr-` + 8 alphanumerics. */
export const APPROVAL_ID = /^apr-[A-Za-z0-9]{8}$/;
/** What `vmark approvals revoke` accepts: `grt-` + 8 alphanumerics. */
export const GRANT_ID = /^grt-[A-Za-z0-9]{8}$/;

/**
 * `apr-` + 8 random alphanumerics. Random rather than counted, so that an id a
 * person read from an old listing cannot name a newer request of another host run.
 */
export function newApprovalId(): string {
  return `apr-${randomAlphanumerics()}`;
}

/** `grt-` + 8 random alphanumerics: a standing grant, named as a request is. */
export function newGrantId(): string {
  return `grt-${randomAlphanumerics()}`;
}

function randomAlphanumerics(): string {
  let out = '';
  while (out.length < LENGTH) {
    for (const byte of randomBytes(16)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < LENGTH) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
