import nodemailer from 'nodemailer';
import { failed, type SendOutcome } from './send-outcome.js';

export interface EmailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface SmtpSettings {
  /** `smtp://[user:password@]host[:port]` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  readonly url: string | undefined;
  readonly from: string;
  readonly timeoutMs: number;
}

/**
 * Sends one message through the configured SMTP server (`SCRIPTORIUM_SMTP_URL`). Every stage — connecting,
 * the greeting, each command — is bounded by `timeoutMs`. A failure is answered, never thrown, and its
 * text never carries the URL's password (an SMTP error can echo what it was given).
 */
export async function sendEmail(settings: SmtpSettings, message: EmailMessage): Promise<SendOutcome> {
  if (settings.url === undefined) return failed('E-mail cannot be sent: SCRIPTORIUM_SMTP_URL is not set');
  const url = new URL(settings.url);
  const password = decodeURIComponent(url.password);
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
    secure: url.protocol === 'smtps:',
    ...(url.username !== '' && { auth: { user: decodeURIComponent(url.username), pass: password } }),
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
    // One message per delivery: nothing to pool; the connection closes after it.
    pool: false,
  });
  try {
    const info = await transport.sendMail({
      from: settings.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    return { delivered: true, status: null, response: info.response, error: null };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const response = (error as { response?: unknown }).response;
    return failed(
      hide(`The SMTP server did not take the message: ${text}`, password),
      null,
      typeof response === 'string' ? hide(response, password) : null,
    );
  } finally {
    transport.close();
  }
}

function hide(text: string, password: string): string {
  return password === '' ? text : text.split(password).join('***');
}
