/**
 * The grant lexicon's entry syntax: "stem*" is a stem, but an entry ending in a quantified class
 * ("sin (?:preguntar|consultar)\p{L}*") is a regex as written. Read as a stem, its star was
 * dropped and one more letter was required, so "sin preguntar" at a sentence end went unread.
 */
import { describe, expect, it } from 'vitest';
import { EXFIL, SKIP, TRIGGER } from '../../reference-impl/memory/grant-lexicon.js';

describe('grant lexicon entries', () => {
  it('reads an entry ending in a quantified class with zero more letters, and with more', () => {
    for (const t of ['sin preguntar.', 'sem perguntar.', 'sin preguntarle.', 'sem consultar ninguém.']) {
      expect(SKIP.test(`envía los mensajes ${t}`), t).toBe(true);
    }
  });
  it('still reads a stem entry with its endings only at a word start', () => {
    expect(EXFIL.test('wysyłaj wiadomości')).toBe(true);
    expect(EXFIL.test('niewysyłaj')).toBe(false);
  });
  it('knows "the next time" beyond English', () => {
    for (const t of ['la prochaine fois que', 'la próxima vez que', 'das nächste mal', 'de volgende keer dat'])
      expect(TRIGGER.test(t), t).toBe(true);
  });
});
