import { describe, expect, it } from 'vitest';
import { escapeBeyondUnicode, hasLoneSurrogate, unicodeProblem } from './unicode.js';

describe('unicode', () => {
  it('finds lone surrogates, not pairs', () => {
    expect(hasLoneSurrogate('a\uD800')).toBe(true);
    expect(hasLoneSurrogate('\uDC00a')).toBe(true);
    expect(hasLoneSurrogate('\uDC00\uD800')).toBe(true);
    expect(hasLoneSurrogate('a😀b\uD83D\uDE00')).toBe(false);
  });

  it('finds \\U escapes beyond U+10FFFF, not escaped backslashes or valid ones', () => {
    expect(escapeBeyondUnicode('"\\UFFFFFFFF"')).toBe('\\UFFFFFFFF');
    expect(escapeBeyondUnicode('x \\\\\\U00110000')).toBe('\\U00110000');
    expect(escapeBeyondUnicode('"\\\\UFFFFFFFF"')).toBeUndefined();
    expect(escapeBeyondUnicode('"\\U0010FFFF"')).toBeUndefined();
  });

  it('words the problem', () => {
    expect(unicodeProblem('\\U04010000')).toBe(
      'the escape \\U04010000 is beyond the last Unicode code point U+10FFFF',
    );
    expect(unicodeProblem('\uDFFF')).toMatch(/lone surrogate/);
    expect(unicodeProblem('fine')).toBeUndefined();
  });
});
