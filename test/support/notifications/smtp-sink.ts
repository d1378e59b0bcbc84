import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** `smtp://user:password@127.0.0.1:<port>` (the sink takes any credentials). */
  readonly url: string;
  readonly messages: ParsedMail[];
  /** The credentials the client signed in with, to show the password reached only the server. */
  readonly logins: string[];
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A real SMTP server in process (smtp-server), each message parsed with mailparser. */
export async function startSmtpSink(password = 'smtp-test-password'): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const logins: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username ?? ''}:${auth.password ?? ''}`);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const waiter of waiters.filter((w) => messages.length >= w.count)) waiter.resolve();
          callback();
        })
        .catch((error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:${password}@127.0.0.1:${port}`,
    messages,
    logins,
    waitFor: (count) =>
      messages.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push({ count, resolve });
          }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** An SMTP URL where nothing listens (a server that is down). */
export async function deadSmtpUrl(): Promise<string> {
  const sink = await startSmtpSink();
  await sink.close();
  return sink.url;
}
