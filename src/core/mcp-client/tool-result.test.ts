import { describe, expect, it } from 'vitest';
import { MAX_DATA_DEPTH, MAX_RESULT_CHARS, MAX_RESULT_IMAGE_BYTES, MAX_RESULT_IMAGES, toolResultOf } from './tool-result';

/** Base64 of `bytes` bytes (a multiple of 3, so no padding). */
const base64 = (bytes: number): string => 'AAAA'.repeat(bytes / 3);

describe('an MCP tool result for the model', () => {
  it('keeps text, carries images and names them in the text, and falls back to structured content', () => {
    expect(
      toolResultOf({
        content: [
          { type: 'text', text: 'Total: 42.00' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        ],
      }),
    ).toEqual({ success: true, message: 'Total: 42.00\n[image image/png, 3 bytes]', images: [{ mimeType: 'image/png', data: 'AAAA' }] });
    expect(toolResultOf({ content: [], structuredContent: { total: 42 } })).toEqual({ success: true, message: '{"total":42}', data: { total: 42 } });
    expect(toolResultOf({ content: [] })).toEqual({ success: true, message: '(no output)' });
  });

  it('takes an embedded resource’s image blob as an image, and names other blobs and audio only', () => {
    const result = toolResultOf({
      content: [
        { type: 'resource', resource: { uri: 'file:///shot.jpg', mimeType: 'image/jpeg', blob: 'AAAA' } },
        { type: 'resource', resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: 'AAAA' } },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
    });
    expect(result.images).toEqual([{ mimeType: 'image/jpeg', data: 'AAAA' }]);
    expect(result.message).toBe('[image image/jpeg, 3 bytes] from file:///shot.jpg\n[resource file:///report.pdf]\n[audio audio/wav, 3 bytes, not shown]');
  });

  it('keeps at most 4 images and 5 MB of them, and names the rest as left out with the reason', () => {
    const many = toolResultOf({
      content: Array.from({ length: MAX_RESULT_IMAGES + 1 }, () => ({ type: 'image' as const, mimeType: 'image/png', data: 'AAAA' })),
    });
    expect(many.images).toHaveLength(MAX_RESULT_IMAGES);
    expect(many.message.split('\n').at(-1)).toBe('[image image/png, 3 bytes, left out: a result shows at most 4 images]');

    const big = 3_000_000;
    const heavy = toolResultOf({
      content: [
        { type: 'image', mimeType: 'image/png', data: base64(big) },
        { type: 'image', mimeType: 'image/png', data: base64(big) },
        { type: 'image', mimeType: 'image/webp', data: 'AAAA' },
      ],
    });
    // The second would pass the budget; a later small one still fits.
    expect(heavy.images?.map((image) => image.data.length)).toEqual([4_000_000, 4]);
    expect(heavy.message).toBe(
      `[image image/png, ${big} bytes]\n[image image/png, ${big} bytes, left out: a result shows at most ${MAX_RESULT_IMAGE_BYTES / 1_000_000} MB of images]\n[image image/webp, 3 bytes]`,
    );
  });

  it('leaves out an image a model could not read, so it never fails the whole request', () => {
    const result = toolResultOf({
      content: [
        { type: 'image', mimeType: 'image/svg+xml', data: 'AAAA' },
        { type: 'image', mimeType: 'image/png', data: 'not base64!' },
        { type: 'image', mimeType: 'IMAGE/PNG', data: 'AAA=' },
      ],
    });
    expect(result.message).toBe(
      '[image image/svg+xml, 3 bytes, left out: not a format models read (PNG, JPEG, GIF, WebP)]\n' +
        '[image image/png, 8 bytes, left out: the data is not base64]\n' +
        '[image IMAGE/PNG, 2 bytes]',
    );
    expect(result.images).toEqual([{ mimeType: 'image/png', data: 'AAA=' }]);
  });

  it('cuts a long result to the budget and says how much was left out; isError fails', () => {
    expect(toolResultOf({ content: [{ type: 'text', text: 'x'.repeat(50) }] }, 20).message).toBe(`${'x'.repeat(20)}\n… cut: 30 more characters`);
    expect(toolResultOf({ content: [{ type: 'text', text: 'no such file' }], isError: true })).toEqual({ success: false, message: 'no such file' });
  });

  it('leaves out structured content nested too deep to print or send, and says so', () => {
    let deep: unknown = [];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const result = toolResultOf({ content: [{ type: 'text', text: 'ok' }], structuredContent: { deep } });
    expect(result.data).toBeUndefined();
    expect(result.message).toBe(`ok\n[structured content left out: it nests more than ${MAX_DATA_DEPTH} levels deep]`);
    expect(result.truncated).toBe(true);
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('cuts structured content to the budget like the text: it goes out in every tool_result event', () => {
    const result = toolResultOf({ content: [{ type: 'text', text: 'ok' }], structuredContent: { blob: 'z'.repeat(9_000_000), count: 3 } });
    expect(JSON.stringify(result.data).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(result.data).toMatchObject({ count: 3, blob: expect.stringMatching(/^z+…$/) });
    expect(result.truncated).toBe(true);
    // Keys and numbers alone cannot be cut and keep their shape: left out, and said so.
    const wide = toolResultOf({
      content: [],
      structuredContent: Object.fromEntries(Array.from({ length: 100_000 }, (_unused, index) => [`k${index}`, index])),
    });
    expect(wide.data).toBeUndefined();
    expect(wide.message).toMatch(/^\[structured content left out: \d+ characters, over the limit of 12000\]$/);
  });
});
