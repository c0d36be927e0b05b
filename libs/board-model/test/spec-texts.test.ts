import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CRITICAL_SYNC_ERRORS,
  DEFAULT_STICKY_TEXT,
  DEFAULT_TEXT,
  KANBAN_DEFAULT_COLUMNS,
  STICKER_IMPORT_TEXTS as T,
  pluralParticipants,
} from '../src/index.ts';

// The shared spec sits beside the repository (../shared), on developers' machines and in CI alike.
const specPath = fileURLToPath(new URL('../../../../shared/spec/board-page.md', import.meta.url));

describe('Russian texts are copied from the spec character for character', () => {
  it('finds the spec beside the repository', () => {
    expect(existsSync(specPath), `missing ${specPath}`).toBe(true);
  });
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const quoted = (s: string) => expect(spec).toContain(`'${s}'`);

  it('JSON import messages', () => {
    quoted(T.invalidJson('...'));
    quoted(T.notArray);
    quoted(T.empty);
    quoted(T.tooMany);
    quoted(T.notObject('N'));
    quoted(T.textRequired('N'));
    quoted(T.textTooLong('N'));
    quoted(T.notJsonFile);
    quoted(T.fileTooLarge);
    quoted(T.readError);
  });

  it('defaults, kanban column names and the participant word', () => {
    quoted(DEFAULT_STICKY_TEXT);
    quoted(DEFAULT_TEXT);
    expect(spec).toContain(`Default names: ${KANBAN_DEFAULT_COLUMNS.join(', ')}.`);
    quoted(pluralParticipants(1));
    for (const e of CRITICAL_SYNC_ERRORS) quoted(e);
  });
});
