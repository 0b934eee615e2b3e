/**
 * Saved browser sessions live in the OS keychain (on Linux the Secret Service, e.g.
 * gnome-keyring; macOS Keychain; Windows Credential Manager), encrypted at rest by it — never in
 * a file of vmark's (ADR-A7, "credentials by reference"). One entry per handle, under a service
 * name of this installation, so two `VMARK_HOME`s never read each other's sessions. Where no
 * keychain can be reached the answer is `KEYCHAIN_UNAVAILABLE`, never a plaintext fallback.
 * Nothing here ever puts a stored value into an error or a log.
 */
import { createHash } from 'node:crypto';
import { AsyncEntry } from '@napi-rs/keyring';
import { TokenError } from '@vmark/sdk';

/** Pinned to the Secret Service on Linux: the kernel keyring is not a keychain (it forgets on reboot). */
const OPTIONS = { linux: { store: 'secret-service' as const } };

export class Keychain {
  readonly #service: string;

  constructor(home: string) {
    this.#service = `vmark browser sessions ${createHash('sha256').update(home).digest('hex').slice(0, 12)}`;
  }

  async put(handle: string, value: string): Promise<void> {
    await this.#use(() => new AsyncEntry(this.#service, handle, OPTIONS).setPassword(value));
  }

  /** The stored value, or null when none is stored under `handle`. */
  async get(handle: string): Promise<string | null> {
    return this.#use(() => new AsyncEntry(this.#service, handle, OPTIONS).getPassword());
  }

  async delete(handle: string): Promise<boolean> {
    return this.#use(() => new AsyncEntry(this.#service, handle, OPTIONS).deletePassword());
  }

  async #use<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      // The keyring's own message names the store and the reason, never a value.
      const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw new TokenError(
        'KEYCHAIN_UNAVAILABLE',
        `the OS keychain could not be reached (${why}); saved sessions live only there. On Linux this needs a ` +
          'Secret Service (e.g. gnome-keyring) on the session D-Bus, unlocked.',
      );
    }
  }
}
