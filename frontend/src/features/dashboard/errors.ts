import { getErrorCode, getErrorMessage } from '../../api/errors.ts';
import { SPEC } from './texts.ts';

/** The server's `error` text, or the §8 fallback. */
export const errorText = (err: unknown, fallback: string): string => getErrorMessage(err, fallback);

/** §8: a folder move refused as cyclic (code CYCLIC_DEPENDENCY or a text containing 'циклическ'). */
export function isCyclicError(err: unknown): boolean {
  return getErrorCode(err) === 'CYCLIC_DEPENDENCY' || /циклическ/i.test(getErrorMessage(err, ''));
}

/** Text of a failed folder move. */
export const folderMoveErrorText = (err: unknown): string =>
  isCyclicError(err) ? SPEC.cyclicMove : errorText(err, SPEC.moveFolderError);
