import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from './sha256';

describe('sha256', () => {
  it("matches node:crypto's on empty, short, block-edge and non-ASCII inputs", () => {
    const inputs = [
      '',
      'abc',
      'a'.repeat(55),
      'a'.repeat(56),
      'a'.repeat(64),
      'a'.repeat(1000),
      'v1.1795790968053.ASSgSKmOlBK5iXNT:4711',
      'Ŝ€💡',
    ];
    for (const text of inputs) {
      expect(Buffer.from(sha256(text)).toString('hex')).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});
