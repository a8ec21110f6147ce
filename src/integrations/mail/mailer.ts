import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. The outbox keeps every message for the console and the server log; SMTP delivers it too. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<'outbox' | 'sent'>;
}

/** The local default: nothing leaves the machine; the message is only recorded (and logged by the caller). */
export function createOutboxMailer(): Mailer {
  return { kind: 'outbox', send: async () => 'outbox' };
}

/** SMTP through nodemailer, e.g. `smtp://user:pass@smtp.example.com:587`. */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      return 'sent';
    },
  };
}
