/**
 * Binary payloads cross the wire as standard base64 strings inside JSON; the codec decodes
 * them to the contract's `Uint8Array` and encodes them back, so both sides use one schema.
 */
import { z } from 'zod';

export const Base64Bytes = z.codec(
  z.base64(),
  z.custom<Uint8Array>((v) => v instanceof Uint8Array),
  {
    decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
    encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  },
);
