import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets we must read back (bank HMAC keys, webhook secrets). The key is derived from
 * SECRETS_ENCRYPTION_KEY with HKDF-SHA256; each value gets a random 96-bit IV. Stored form:
 * `v1.<base64url(iv | tag | ciphertext)>`. A tampered value or a wrong key fails to open (GCM tag).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(encryptionKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', encryptionKey, 'qris-secret-box', 'aes-256-gcm', 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  open(sealed: string): string {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new Error('unsupported sealed secret');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
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
