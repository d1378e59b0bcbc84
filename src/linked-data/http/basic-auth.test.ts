import { describe, expect, it } from 'vitest';
import { formatBasicAuthorization, parseBasicAuthorization } from './basic-auth.js';

describe('Basic authorization', () => {
  it('round-trips UTF-8 credentials, passwords with colons included', () => {
    const header = formatBasicAuthorization('fedoraAdmin', 'pä:ss');
    expect(header).toBe(`Basic ${Buffer.from('fedoraAdmin:pä:ss').toString('base64')}`);
    expect(parseBasicAuthorization(header)).toEqual({ username: 'fedoraAdmin', password: 'pä:ss' });
    expect(parseBasicAuthorization(`  basic   ${header.slice(6)} `)).toEqual({
      username: 'fedoraAdmin',
      password: 'pä:ss',
    });
  });

  it('answers undefined, without throwing, for anything else', () => {
    expect(parseBasicAuthorization(undefined)).toBeUndefined();
    expect(parseBasicAuthorization('')).toBeUndefined();
    expect(parseBasicAuthorization('Bearer abc')).toBeUndefined();
    expect(parseBasicAuthorization('Basic not base64!')).toBeUndefined();
    expect(parseBasicAuthorization(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeUndefined();
    expect(parseBasicAuthorization(`Basic ${'A'.repeat(1025)}`)).toBeUndefined();
  });
});
