/**
 * The Russian mails of the e-mail flows (ours, the spec has none: docs/decisions.md). Plain text
 * first (every client shows it), and a small HTML part with the same words and one link.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

// The name the SPA shows (frontend/src/components/Logo.tsx).
const PRODUCT = 'Холст';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** `${publicUrl}${path}?token=...`, with any trailing slash of the public address dropped. */
export function linkUrl(publicUrl: string, path: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;
}

function html(name: string, paragraphs: string[], link: string, button: string, after: string[]): string {
  const p = (t: string) => `<p>${escapeHtml(t)}</p>`;
  return [
    '<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#111827">',
    p(`Здравствуйте, ${name}!`),
    ...paragraphs.map(p),
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#3B82F6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>`,
    p('Если кнопка не открывается, скопируйте ссылку в адресную строку браузера:'),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    ...after.map(p),
    p(`Команда «${PRODUCT}»`),
    '</body></html>',
  ].join('\n');
}

export function passwordResetMail(name: string, link: string): MailContent {
  const intro = [`Кто-то (надеемся, вы) запросил сброс пароля для вашего аккаунта в «${PRODUCT}».`, 'Чтобы задать новый пароль, откройте ссылку:'];
  const after = [
    'Ссылка действует 1 час и только один раз.',
    'Если вы не запрашивали сброс, просто проигнорируйте это письмо: пароль останется прежним.',
  ];
  return {
    subject: `Сброс пароля — ${PRODUCT}`,
    text: [`Здравствуйте, ${name}!`, '', ...intro, link, '', ...after, '', `Команда «${PRODUCT}»`].join('\n'),
    html: html(name, intro, link, 'Задать новый пароль', after),
  };
}

export function verificationMail(name: string, link: string): MailContent {
  const intro = [`Подтвердите, что этот адрес принадлежит вам, чтобы мы могли присылать письма о вашем аккаунте в «${PRODUCT}».`, 'Откройте ссылку:'];
  const after = ['Ссылка действует 1 час. Если вы не регистрировались и не меняли email, проигнорируйте это письмо.'];
  return {
    subject: `Подтверждение email — ${PRODUCT}`,
    text: [`Здравствуйте, ${name}!`, '', ...intro, link, '', ...after, '', `Команда «${PRODUCT}»`].join('\n'),
    html: html(name, intro, link, 'Подтвердить email', after),
  };
}
