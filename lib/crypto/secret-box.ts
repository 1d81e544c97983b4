import type { Config } from '../config/config';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets we must read back (bank HMAC keys, webhook secrets). The key is derived from
 * SECRETS_ENCRYPTION_KEY with HKDF-SHA256; each value gets a random 96-bit IV. Stored form:
 * `v1.<base64url(iv | tag | ciphertext)>`. A tampered value or a wrong key fails to open (GCM tag).
 *
 * Rotation: the box holds every accepted key, the current one first (Config['secrets'].accepted.encryptionKey). It
 * seals with the current key and opens with whichever key's GCM tag matches, so values sealed before a rotation stay
 * readable while SECRETS_ENCRYPTION_KEY_PREVIOUS lists the old key; `reseal` moves a value to the current key
 * (`npm run ops -- secrets:reencrypt`). The stored form names no key, so values sealed before versioned keys existed
 * need no migration.
 */
export class SecretBox {
  private readonly keys: readonly Buffer[];

  constructor(encryptionKeys: string | readonly string[]) {
    const all = typeof encryptionKeys === 'string' ? [encryptionKeys] : encryptionKeys;
    if (all.length === 0) throw new Error('SecretBox needs at least one key');
    this.keys = all.map((key) => Buffer.from(hkdfSync('sha256', key, 'qris-secret-box', 'aes-256-gcm', 32)));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  open(sealed: string): string {
    const opened = this.openWithIndex(sealed);
    if (!opened) throw new Error('sealed secret opens with none of the configured keys');
    return opened.plaintext;
  }

  /** The value sealed again under the current key, or null when it already is (idempotent re-encryption). */
  reseal(sealed: string): string | null {
    const opened = this.openWithIndex(sealed);
    if (!opened) throw new Error('sealed secret opens with none of the configured keys');
    return opened.keyIndex === 0 ? null : this.seal(opened.plaintext);
  }

  private openWithIndex(sealed: string): { plaintext: string; keyIndex: number } | null {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new Error('unsupported sealed secret');
    const raw = Buffer.from(payload, 'base64url');
    for (const [keyIndex, key] of this.keys.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plaintext = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
        return { plaintext, keyIndex };
      } catch {
        // Not this key (the GCM tag does not match): try the next accepted one.
      }
    }
    return null;
  }
}

/** A new random secret for HMAC keys: 32 bytes, hex. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** A public key identifier with a readable prefix, e.g. `lk_3f9a…`. */
export function newKeyId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

const boxes = new Map<string, SecretBox>();

/** One SecretBox per set of accepted keys (SECRETS_ENCRYPTION_KEY and its previous) for the process: key derivation is not per request. */
export function secretBoxFor(config: Config): SecretBox {
  const keys = config.secrets.accepted.encryptionKey;
  let box = boxes.get(keys.join('\n'));
  if (!box) boxes.set(keys.join('\n'), (box = new SecretBox(keys)));
  return box;
}
