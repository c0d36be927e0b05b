import { useEffect, useRef, useState } from 'react';
import { TextField } from '../../components/ui/index.ts';
import { useDebounced } from '../dashboard/hooks/useDebounced.ts';

/** A search box whose text reaches `onSearch` once typing pauses (300 ms), trimmed. */
export function SearchBox({
  id,
  label,
  onSearch,
}: {
  id: string;
  label: string;
  onSearch: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const settled = useDebounced(text.trim(), 300);
  useEffect(() => onSearch(settled), [settled, onSearch]);
  return (
    <div>
      <TextField
        id={id}
        type="search"
        label={label}
        hideLabel
        placeholder={label}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid={id}
      />
    </div>
  );
}

/** §4 Admin data refresh: the stats reload when a search text changes (not on the first render). */
export function useSearchChange(search: string, onChange: () => void): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    onChange();
  }, [search, onChange]);
}
