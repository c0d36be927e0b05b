import { appError } from '@wb/service-kit';

export const SETTINGS_MAX_BYTES = 16_384;

/**
 * PATCH semantics: top-level keys replace the stored ones and `null` removes a key, so two
 * screens saving different settings do not overwrite each other. The merged object is capped
 * too, or repeated patches with new keys could grow it without bound.
 */
export function mergeSettings(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  if (Buffer.byteLength(JSON.stringify(merged)) > SETTINGS_MAX_BYTES) {
    throw appError('VALIDATION_ERROR', { message: 'Настройки слишком большие', fields: { settings: 'Настройки слишком большие' } });
  }
  return merged;
}
