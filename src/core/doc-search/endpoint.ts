import path from 'node:path';
import { resolveProviderConfig, type Environment, type ProviderSettings } from '../provider-config/config';
import type { PresetName } from '../provider-config/presets';
import { dataDir } from '../platform/data-dir';
import type { EmbeddingsEndpoint } from './embeddings';
import { DocsService } from './service';

/** Embedding models of the presets that have one; elsewhere DESKPILOT_EMBEDDING_MODEL names it. */
const DEFAULT_EMBEDDING_MODELS: Partial<Record<PresetName, string>> = {
  openai: 'text-embedding-3-small',
  ollama: 'nomic-embed-text',
  gemini: 'text-embedding-004',
};

/**
 * The configured provider's /v1/embeddings, or undefined when it has no embedding model (then
 * search is full-text only and says so). A provider that cannot be resolved is not an error here.
 */
export function embeddingEndpoint(settings: ProviderSettings & { embeddingModel?: string }, env: Environment): EmbeddingsEndpoint | undefined {
  let config;
  try {
    config = resolveProviderConfig(settings, env);
  } catch {
    return undefined;
  }
  const fromEnv = env['DESKPILOT_EMBEDDING_MODEL'];
  const model = fromEnv !== undefined && fromEnv !== '' ? fromEnv : (settings.embeddingModel ?? DEFAULT_EMBEDDING_MODELS[config.preset]);
  if (model === undefined || model === '') return undefined;
  return { baseUrl: config.baseUrl, model, ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }), headers: config.headers };
}

/** Folders from DESKPILOT_DOCS_FOLDERS, separated as PATH is. */
export function foldersFromEnv(env: Environment, delimiter = path.delimiter): string[] {
  return (env['DESKPILOT_DOCS_FOLDERS'] ?? '').split(delimiter).filter((folder) => folder.trim() !== '');
}

/**
 * Documentation search as the headless programs and the host set it up: the index in the data
 * folder (DESKPILOT_DATA_DIR, which the app points at its own), folders from DESKPILOT_DOCS_FOLDERS,
 * embeddings from the configured provider.
 */
export function docsServiceFromEnv(env: Environment, notify: (text: string) => void): DocsService {
  return new DocsService({
    dataDir: dataDir(env),
    env,
    settings: () => ({ folders: foldersFromEnv(env) }),
    endpoint: () => embeddingEndpoint({}, env),
    notify,
  });
}
