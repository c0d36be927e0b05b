import { useState } from 'react';
import {
  STICKER_IMPORT_TEXTS,
  layoutStickers,
  parseStickerJson,
  validateStickerFile,
  type CanvasObject,
} from '@wb/board-model';
import { Button } from '../../../../components/ui/index.ts';
import { TEMPLATE_LABELS } from '../texts.ts';
import styles from './templates.module.css';

/** §5 JSON import: text or a file (JSON type, at most 1 MB); every message comes from stickerImport.ts. */
export function JsonImportForm({ onImport }: { onImport: (objects: CanvasObject[]) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const readFile = (file: File) => {
    const check = validateStickerFile(file);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      setText(String(reader.result));
      setError(null);
    };
    reader.onerror = () => setError(STICKER_IMPORT_TEXTS.readError);
    reader.readAsText(file);
  };
  return (
    <div className={styles.form} data-testid="json-form">
      <textarea
        className={styles.textarea}
        value={text}
        aria-label={TEMPLATE_LABELS.jsonText}
        placeholder='[{"text": "…", "status": 1}]'
        data-testid="json-text"
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      <label className={styles.field}>
        {TEMPLATE_LABELS.jsonFile}
        <input
          type="file"
          accept=".json,application/json"
          data-testid="json-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) readFile(file);
          }}
        />
      </label>
      {error ? (
        <p className={styles.error} role="alert" data-testid="json-error">
          {error}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button
          size="sm"
          variant="primary"
          disabled={text.trim() === ''}
          data-testid="json-import"
          onClick={() => {
            const result = parseStickerJson(text);
            if (!result.ok) {
              setError(result.error);
              return;
            }
            onImport(layoutStickers(result.stickers));
          }}
        >
          {TEMPLATE_LABELS.import}
        </Button>
      </div>
    </div>
  );
}
