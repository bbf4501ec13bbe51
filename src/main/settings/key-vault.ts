import { DeskpilotError } from '../../shared/errors';

/** The part of Electron's safeStorage the key needs; passed in so tests can fake the OS keychain. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store backs the encryption. */
  getSelectedStorageBackend?(): string;
}

/** Refused rather than stored in clear: the settings view shows this, the secret stays unsaved. */
export class KeyStorageUnavailableError extends DeskpilotError {
  constructor(message: string) {
    super('PROVIDER_CONFIG', message, { data: { reason: 'key_storage_unavailable' } });
    this.name = 'KeyStorageUnavailableError';
  }
}

/** What each stored secret is called, and how to give it to Deskpilot without a keychain. */
const SECRETS = {
  apiKey: {
    name: 'the API key',
    instead: "Set the DESKPILOT_API_KEY environment variable (or the provider's own, e.g. OPENROUTER_API_KEY) instead, or use a local model.",
  },
  // An Authorization or api-key header authenticates as much as a key does.
  headers: { name: 'the extra headers', instead: 'Set the DESKPILOT_HEADERS environment variable instead.' },
  // Their env and headers often hold tokens, so the whole config is a secret.
  mcpServers: { name: 'the MCP servers', instead: 'Pass them to the CLI with --mcp-config instead, or keep the tokens out of the config.' },
} as const;

export type SecretKind = keyof typeof SECRETS;

/**
 * On Linux, safeStorage's `basic_text` backend (no keyring, e.g. a bare X session) encrypts
 * with a password hard-coded in Chromium: anyone who reads the file can decrypt it. That is
 * plaintext in disguise, so it counts as unavailable.
 */
export function keyStorageProblem(safeStorage: SafeStorageLike, platform: string, kind: SecretKind = 'apiKey'): string | undefined {
  const { name, instead } = SECRETS[kind];
  if (!safeStorage.isEncryptionAvailable()) {
    return `The system keychain is not available, so Deskpilot will not store ${name}. ${instead}`;
  }
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
    return `No keyring (GNOME Keyring or KWallet) is running, so ${name} could only be stored unprotected, and Deskpilot will not do that. Start a keyring, or: ${instead}`;
  }
  return undefined;
}

/** A secret (the key, the headers), encrypted by the OS keychain, as base64 for the JSON settings file. */
export function encryptKey(safeStorage: SafeStorageLike, platform: string, secret: string, kind: SecretKind = 'apiKey'): string {
  const problem = keyStorageProblem(safeStorage, platform, kind);
  if (problem !== undefined) throw new KeyStorageUnavailableError(problem);
  return safeStorage.encryptString(secret).toString('base64');
}

/** Undefined when none is stored or it can no longer be decrypted (another machine, a reset keychain). */
export function decryptKey(safeStorage: SafeStorageLike, stored: string): string | undefined {
  if (stored === '' || !safeStorage.isEncryptionAvailable()) return undefined;
  try {
    return safeStorage.decryptString(Buffer.from(stored, 'base64'));
  } catch {
    return undefined;
  }
}
