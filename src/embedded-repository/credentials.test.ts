import { describe, expect, it } from 'vitest';
import { formatBasicAuthorization } from '../linked-data/http/basic-auth.js';
import { CredentialCheck } from './credentials.js';

describe('CredentialCheck', () => {
  const check = new CredentialCheck({ username: 'fedoraAdmin', password: 'sécret:with colon' });
  const basic = (user: string, password: string) => formatBasicAuthorization(user, password);

  it('accepts the credentials as clients send them, and in any other spelling Basic allows', () => {
    const token = Buffer.from('fedoraAdmin:sécret:with colon', 'utf8').toString('base64');
    for (const header of [
      basic('fedoraAdmin', 'sécret:with colon'),
      `basic ${token}`,
      `BASIC   ${token}`,
      `  Basic ${token}  `,
    ]) {
      expect(check.verify(header), header).toEqual({ kind: 'right', username: 'fedoraAdmin' });
    }
  });

  it('refuses a wrong user or password as wrong, and no or unreadable credentials as none', () => {
    for (const header of [
      basic('fedoraAdmin', 'sécret'),
      basic('fedoraadmin', 'sécret:with colon'),
      basic('fedoraAdmin', ''),
      basic('', 'sécret:with colon'),
    ]) {
      expect(check.verify(header), header).toEqual({ kind: 'wrong' });
    }
    for (const header of [
      undefined,
      '',
      'Basic !!!',
      'Bearer abc',
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
    ]) {
      expect(check.verify(header), String(header)).toEqual({ kind: 'none' });
    }
  });
});
