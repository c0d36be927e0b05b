/**
 * The error catalogue: every code a service may answer with, its HTTP status and the Russian
 * text shown to the user. Texts marked `spec: true` are copied from ../shared/spec and a test
 * checks that they still appear there verbatim; the others are ours (the spec says "not shown")
 * and are recorded in docs/decisions.md.
 */
export interface ErrorDef {
  status: number;
  message: string;
  spec: boolean;
}

const def = (status: number, message: string, spec = false): ErrorDef => ({ status, message, spec });

export const ERRORS = {
  // Generic request errors
  VALIDATION_ERROR: def(400, 'Некорректные данные запроса'),
  INVALID_JSON: def(400, 'Некорректный JSON в теле запроса'),
  PAYLOAD_TOO_LARGE: def(413, 'Слишком большой запрос'),
  NOT_FOUND: def(404, 'Ресурс не найден'),
  METHOD_NOT_ALLOWED: def(405, 'Метод не поддерживается'),
  RATE_LIMITED: def(429, 'Слишком много запросов. Попробуйте позже'),
  INTERNAL_ERROR: def(500, 'Внутренняя ошибка сервера'),
  SERVICE_UNAVAILABLE: def(503, 'Сервис временно недоступен'),

  // Authentication
  TOKEN_MISSING: def(401, 'Требуется авторизация'),
  TOKEN_INVALID: def(401, 'Недействительный токен доступа'),
  TOKEN_EXPIRED: def(401, 'Срок действия токена истёк'),
  REFRESH_TOKEN_INVALID: def(401, 'Сессия недействительна. Войдите снова'),
  INVALID_CREDENTIALS: def(401, 'Неверный email или пароль'),
  EMAIL_ALREADY_EXISTS: def(409, 'Пользователь с таким email уже существует', true),
  INVALID_CURRENT_PASSWORD: def(400, 'Неверный текущий пароль', true),
  USER_NOT_FOUND: def(404, 'Пользователь не найден'),
  ADMIN_REQUIRED: def(403, 'Требуются права администратора'),
  // Password reset and e-mail verification by e-mail links (issue 32, item 11; texts are ours: docs/decisions.md)
  RESET_TOKEN_INVALID: def(400, 'Ссылка для сброса пароля недействительна. Запросите новую'),
  RESET_TOKEN_EXPIRED: def(410, 'Срок действия ссылки для сброса пароля истёк. Запросите новую'),
  RESET_TOKEN_USED: def(410, 'Эта ссылка для сброса пароля уже использована. Запросите новую'),
  VERIFY_TOKEN_INVALID: def(400, 'Ссылка для подтверждения email недействительна'),
  VERIFY_TOKEN_EXPIRED: def(410, 'Срок действия ссылки для подтверждения email истёк. Отправьте письмо ещё раз'),
  VERIFY_TOKEN_USED: def(410, 'Эта ссылка для подтверждения email уже использована'),
  EMAIL_ALREADY_VERIFIED: def(409, 'Email уже подтверждён'),
  MAIL_RATE_LIMITED: def(429, 'Слишком много писем за короткое время. Попробуйте позже'),
  // Admin user management (issue 34; ours: docs/decisions.md "Admin user management")
  CANNOT_DELETE_SELF: def(409, 'Нельзя удалить собственную учётную запись из панели администратора'),
  // System update (issue 34; docs/decisions.md "System update")
  UPDATE_ALREADY_RUNNING: def(409, 'Обновление системы уже выполняется. Дождитесь его завершения'),

  // Boards, folders, tags, sharing
  BOARD_LIMIT_REACHED: def(403, 'Достигнут лимит досок. Обновите план для создания новых досок.', true),
  FOLDER_NOT_FOUND: def(404, 'Папка не найдена', true),
  ACCESS_DENIED: def(403, 'У вас нет доступа к этой доске', true),
  BOARD_NOT_FOUND: def(404, 'Доска не найдена', true),
  INVALID_SHARE_TOKEN: def(403, 'Недействительная ссылка доступа', true),
  SHARE_AUTH_REQUIRED: def(401, 'Для доступа к этой доске требуется авторизация', true),
  CYCLIC_DEPENDENCY: def(400, 'Нельзя переместить папку в её дочернюю папку', true),
  TAG_NOT_FOUND: def(404, 'Тег не найден'),
  TAG_ALREADY_EXISTS: def(409, 'Тег с таким названием уже существует'),

  // Realtime (board documents)
  OWNER_REQUIRED: def(403, 'Действие доступно только владельцу доски'),
  REACTIONS_NOT_ALLOWED: def(403, 'Реакции недоступны в этом режиме просмотра'),
  OBJECT_NOT_FOUND: def(404, 'Объект не найден или не поддерживает реакции'),
  DOCUMENT_TOO_LARGE: def(413, 'Доска слишком большая'),

  // Board images (realtime) and export
  IMAGE_TOO_LARGE: def(413, 'Изображение слишком большое'),
  IMAGE_TYPE_NOT_ALLOWED: def(415, 'Поддерживаются только изображения PNG, JPEG, GIF и WebP'),
  IMAGE_NOT_FOUND: def(404, 'Изображение не найдено'),
  IMAGE_URL_INVALID: def(403, 'Ссылка на изображение недействительна'),
  IMAGE_URL_EXPIRED: def(403, 'Срок действия ссылки на изображение истёк'),
  EXPORT_AREA_TOO_SMALL: def(400, 'Область экспорта должна быть больше 10×10'),
  EXPORT_AREA_TOO_LARGE: def(413, 'Область экспорта слишком большая'),
  EXPORT_TOO_MANY_OBJECTS: def(413, 'В области экспорта слишком много объектов'),
  EXPORT_PDF_NOT_ALLOWED: def(403, 'Экспорт в PDF недоступен на вашем тарифе'),
  EXPORT_BUSY: def(503, 'Сервис экспорта перегружен. Повторите попытку позже'),
  EXPORT_USER_BUSY: def(429, 'Слишком много ваших экспортов одновременно. Дождитесь окончания предыдущих и повторите попытку'),

  // Billing, plans, subscriptions
  BILLING_DISABLED: def(409, 'Биллинг временно недоступен', true),
  CHECKOUT_FAILED: def(502, 'Ошибка создания заказа', true),
  PLAN_NOT_FOUND: def(404, 'Тариф не найден'),
  PLAN_ALREADY_EXISTS: def(409, 'Тариф с таким названием уже существует'),
  PLAN_INACTIVE: def(409, 'Этот тариф сейчас недоступен'),
  VARIANT_NOT_FOUND: def(404, 'Вариант тарифа не найден'),
  VARIANT_INACTIVE: def(409, 'Этот вариант тарифа сейчас недоступен'),
  FREE_PLAN_NO_CHECKOUT: def(400, 'Бесплатный тариф не требует оплаты'),
  CURRENCY_NOT_SUPPORTED: def(400, 'Оплата в этой валюте недоступна'),
  SUBSCRIPTION_NOT_FOUND: def(404, 'Подписка не найдена'),
  ORDER_NOT_FOUND: def(404, 'Заказ не найден'),
  WEBHOOK_REJECTED: def(400, 'Уведомление платёжной системы отклонено'),
  PAYMENT_NOT_FOUND: def(404, 'Платёж не найден'),
  RECEIPT_NOT_AVAILABLE: def(409, 'Чек есть только у оплаченного платежа'),
  RECEIPT_FAILED: def(503, 'Не удалось сформировать чек. Попробуйте позже'),
} as const satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;

/** The JSON body of every error answer. `fields` names the invalid fields of a VALIDATION_ERROR. */
export interface ErrorBody {
  error: string;
  code: ErrorCode | string;
  fields?: Record<string, string>;
  requestId?: string;
}
