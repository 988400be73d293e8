// A tool result's images as read back from a transcript: kept when they are what main lets
// through (a drawable type, base64, bounded), and the whole event skipped when they are not,
// since the window draws them from a data: URL.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from './events';
import { runEventSchema } from './run-event-schema';
import { MAX_SHOWN_IMAGE_BYTES } from './tool-types';

const PNG = 'iVBORw0KGgo=';

function toolResult(images: unknown): unknown {
  return {
    type: 'tool-result',
    runId: 'r1',
    callId: 'c1',
    ok: true,
    output: '[image 1: image/png, 8 bytes; shown to the person in the trace]',
    durationMs: 3,
    images,
  };
}

describe('tool-result images in the RunEvent schema', () => {
  it('keeps the images of a result through a reload', () => {
    const parsed = runEventSchema.safeParse(toolResult([{ mimeType: 'image/png', data: PNG }]));
    expect(parsed.success).toBe(true);
    const event = parsed.data as Extract<RunEvent, { type: 'tool-result' }>;
    expect(event.images).toEqual([{ mimeType: 'image/png', data: PNG }]);
  });

  it.each([
    ['an SVG (it can carry script)', [{ mimeType: 'image/svg+xml', data: PNG }]],
    ['data that is not base64', [{ mimeType: 'image/png', data: 'iVBOR"><script>' }]],
    [
      'an image past the size main shows',
      [{ mimeType: 'image/png', data: 'A'.repeat(Math.ceil(MAX_SHOWN_IMAGE_BYTES / 3) * 4 + 4) }],
    ],
    ['more images than one result shows', Array(5).fill({ mimeType: 'image/png', data: PNG })],
  ])('skips a result with %s', (_, images) => {
    expect(runEventSchema.safeParse(toolResult(images)).success).toBe(false);
  });

  it('keeps only the type and the data of an image', () => {
    const parsed = runEventSchema.safeParse(
      toolResult([{ mimeType: 'image/png', data: PNG, src: 'https://example.com/x.png' }]),
    );
    const event = parsed.data as Extract<RunEvent, { type: 'tool-result' }>;
    expect(event.images).toEqual([{ mimeType: 'image/png', data: PNG }]);
  });
});
