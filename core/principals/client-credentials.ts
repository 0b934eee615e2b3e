/**
 * Per-client credentials (DESIGN.md §6): each MCP client a person installs gets its own
 * random token (`VMARK_MCP_TOKEN` in that client's MCP config). The token names the
 * client — its *principal* — for decisions that must not rest on what a client says
 * about itself, such as a delegated coherence resolution.
 *
 * Only SHA-256 digests are stored (`$VMARK_HOME/providers.json`, 0600): the tokens are
 * 256 random bits, so a digest cannot be turned back into one, and the file holds no secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { z } from '@vmark/sdk';
import { writeFileAtomic } from '../vault/atomic-write.js';

export const PROVIDERS_FILE = 'providers.json';

/** A provider (client) name: what a person types after `--client`. */
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const providerSchema = z.object({
  id: z.string().regex(PROVIDER_ID),
  tokenSha256: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.string(),
});
const fileSchema = z.object({ format: z.literal(1), providers: z.array(providerSchema) });

export type Provider = z.infer<typeof providerSchema>;

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export class ClientCredentials {
  readonly #file: string;
  #cache: { key: string; providers: readonly Provider[] } | undefined;

  constructor(home: string) {
    this.#file = path.join(home, PROVIDERS_FILE);
  }

  /** The configured providers; an unreadable or malformed file counts as none (fail closed). */
  list(): readonly Provider[] {
    let key: string;
    try {
      const stat = statSync(this.#file, { bigint: true });
      key = `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
    } catch {
      return [];
    }
    if (this.#cache?.key === key) return this.#cache.providers;
    let providers: readonly Provider[] = [];
    try {
      const parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')));
      if (parsed.success) providers = parsed.data.providers;
    } catch {
      providers = [];
    }
    this.#cache = { key, providers };
    return providers;
  }

  /**
   * The provider whose credential `token` is, or null: no token, no match, or a token that
   * matches more than one provider (ambiguous, so it identifies nobody).
   */
  identify(token: string | undefined): string | null {
    if (token === undefined || token === '') return null;
    const presented = digest(token);
    const matches = this.list().filter((p) => timingSafeEqual(presented, Buffer.from(p.tokenSha256, 'hex')));
    return matches.length === 1 ? matches[0]!.id : null;
  }

  /** Mints a fresh credential for `id` (replacing any earlier one) and returns the token. */
  async mint(id: string, now: Date = new Date()): Promise<string> {
    if (!PROVIDER_ID.test(id))
      throw new RangeError(`client name must match ${PROVIDER_ID.source}, got: ${JSON.stringify(id)}`);
    const token = randomBytes(32).toString('base64url');
    const kept = this.list().filter((p) => p.id !== id);
    await this.#write([
      ...kept,
      { id, tokenSha256: digest(token).toString('hex'), created: now.toISOString() },
    ]);
    return token;
  }

  /** Forgets `id`'s credential; its client is anonymous from its next call on. */
  async revoke(id: string): Promise<boolean> {
    const providers = this.list();
    const kept = providers.filter((p) => p.id !== id);
    if (kept.length === providers.length) return false;
    await this.#write(kept);
    return true;
  }

  async #write(providers: readonly Provider[]): Promise<void> {
    await writeFileAtomic(this.#file, JSON.stringify({ format: 1, providers }, null, 2) + '\n');
    await chmod(this.#file, 0o600);
    this.#cache = undefined;
  }
}
