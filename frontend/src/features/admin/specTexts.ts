/** Texts of spec §2 Admin panel, §4 and §8, copied from product.md by a script (never retyped). */
export const SPEC_TEXTS = {
  updateButton: 'Обновить',
  adminLabel: 'Администратор',
  activityEmpty: 'Активности за сегодня пока нет',
  systemUp: 'Система работает',
  systemDown: 'Система недоступна',
  planActive: 'Активен',
  planInactive: 'Неактивен',
  createPlan: 'Создать план',
  updateOverlay: 'Пожалуйста, не закрывайте страницу',
  statusGrace: 'Льготный период',
  statusExpired: 'Истекла',
  systemError: 'Ошибка получения данных системы',
  cacheError: 'Ошибка обновления кеша',
  planSaveError: 'Ошибка сохранения плана',
  planDeleteError: 'Ошибка удаления плана',
  userSaveError: 'Ошибка сохранения пользователя',
  userDeleteError: 'Ошибка удаления пользователя',
  subscriptionSaveError: 'Ошибка сохранения подписки',
  revokeError: 'Ошибка аннулирования',
  updateStartError: 'Ошибка запуска обновления',
  errorPrefix: 'Ошибка:',
  confirmUpdate: 'Обновить систему? Это перезапустит все контейнеры.',
  confirmDeactivatePlan: 'Деактивировать план?',
  confirmDeleteUser: 'Удалить пользователя? Это необратимо!',
  confirmRevoke: 'Аннулировать подписку?',
} as const;

/** The tabs of spec §2 Admin panel, in order (names copied from product.md by the same script). */
export const TAB_TITLES = {
  overview: 'Обзор',
  system: 'Система',
  plans: 'Планы',
  users: 'Пользователи',
  subscriptions: 'Подписки',
  payments: 'Платежи',
  settings: 'Настройки',
} as const;
