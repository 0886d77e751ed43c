import { describe, expect, it } from 'vitest';
import { looksLikeRawTranscript } from '../../reference-impl/memory/raw-transcript.js';

describe('raw transcript rule', () => {
  it('flags role-prefixed turns from two roles, chat templates and JSON turn lists', () => {
    expect(looksLikeRawTranscript('user: hi\nassistant: hello', 'text/plain')).toBe(true);
    expect(looksLikeRawTranscript('### Human: a\n### Assistant: b', 'text/plain')).toBe(true);
    expect(looksLikeRawTranscript('[user] a\n[assistant] b', 'text/plain')).toBe(true);
    expect(looksLikeRawTranscript('<|im_start|>user\nhi<|im_end|>', 'text/plain')).toBe(true);
    expect(
      looksLikeRawTranscript('[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]', 'application/json'),
    ).toBe(true);
    expect(looksLikeRawTranscript('{"messages":[{"role":"user"},{"role":"tool"}]}', 'application/json')).toBe(true);
  });

  it('leaves summaries and single mentions alone', () => {
    expect(
      looksLikeRawTranscript('Summary: the user asked about flights; the assistant suggested Friday.', 'text/plain'),
    ).toBe(false);
    expect(looksLikeRawTranscript('user: prefers tea', 'text/plain')).toBe(false);
    expect(looksLikeRawTranscript('user: a\nuser: b', 'text/plain')).toBe(false);
    expect(looksLikeRawTranscript('{"role":"user"}', 'application/json')).toBe(false);
  });
});
