import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const DIMENSIONS = 256;

/** A bag of hashed words: similar texts get similar vectors, which is all plumbing tests need. It is no language model. */
export function hashedVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (const char of word.slice(0, 6)) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
    const slot = (hash >>> 0) % DIMENSIONS;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  return vector;
}

export interface FakeEmbeddingsServer {
  baseUrl: string;
  /** Requests seen, with their model and input count. */
  requests: { model: string; inputs: number; status: number }[];
  /** Statuses to answer before succeeding again (429 with Retry-After: 0, 503…). */
  failNext: number[];
  /** Models that answer 404, as a provider without that embedding model does. */
  unknownModels: Set<string>;
  close(): Promise<void>;
}

/** A local OpenAI-compatible POST /v1/embeddings for tests and bench:docs. */
export async function startFakeEmbeddings(): Promise<FakeEmbeddingsServer> {
  const state = { requests: [] as FakeEmbeddingsServer['requests'], failNext: [] as number[], unknownModels: new Set<string>() };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { model = '', input = [] } = JSON.parse(body || '{}') as { model?: string; input?: string | string[] };
      const inputs = Array.isArray(input) ? input : [input];
      const failure = state.failNext.shift();
      const status = request.url !== '/v1/embeddings' || state.unknownModels.has(model) ? 404 : (failure ?? 200);
      state.requests.push({ model, inputs: inputs.length, status });
      if (status !== 200) {
        response.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) });
        response.end(JSON.stringify({ error: { message: `fake status ${status}` } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ object: 'list', model, data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: hashedVector(text) })) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    ...state,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
