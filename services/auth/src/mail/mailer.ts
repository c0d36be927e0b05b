/**
 * Sends the e-mail flows' mails over SMTP (nodemailer). Sending happens after the answer, off the
 * request: a reset request for a known address then takes as long as one for an unknown address
 * (the timing tells nothing), and a slow mail server never holds a request. stop() waits for the
 * mails still under way. Without SMTP (development only; production refuses to start, config.ts)
 * each mail is written to the log instead.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@wb/service-kit';
import type { MailContent } from '../domain/mail-texts.ts';

export interface Mailer {
  /** Queues one mail; failures are logged, never thrown to the caller. */
  send(to: string, content: MailContent): void;
  /** Resolves when every queued mail was handed to the server (or failed). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function createMailer(opts: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  const { logger } = opts;
  const transport: Transporter | undefined = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  const pending = new Set<Promise<void>>();

  const deliver = async (to: string, content: MailContent) => {
    if (!transport) {
      // Development without SMTP: the mail (with its link) is only in the log.
      logger.warn({ to, subject: content.subject, text: content.text }, 'SMTP_URL is not set: mail written to the log instead of sent');
      return;
    }
    try {
      await transport.sendMail({ from: opts.from, to, subject: content.subject, text: content.text, html: content.html });
      logger.info({ subject: content.subject }, 'mail sent');
    } catch (err) {
      logger.error({ err, subject: content.subject }, 'sending mail failed');
    }
  };

  return {
    send(to, content) {
      const p = deliver(to, content).finally(() => pending.delete(p));
      pending.add(p);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    async stop() {
      await this.idle();
      transport?.close();
    },
  };
}
