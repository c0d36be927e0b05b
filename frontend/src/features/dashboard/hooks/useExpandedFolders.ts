import { useCallback, useState } from 'react';
import { EXPANDED_STORAGE_KEY, parseExpanded, serializeExpanded } from '../logic.ts';

/** Which folders are open in the tree, kept in localStorage across visits. */
export function useExpandedFolders() {
  const [expanded, setExpanded] = useState<Set<string>>(() => {
    try {
      return parseExpanded(localStorage.getItem(EXPANDED_STORAGE_KEY));
    } catch {
      return new Set();
    }
  });
  const update = useCallback((fn: (s: Set<string>) => void) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      fn(next);
      try {
        localStorage.setItem(EXPANDED_STORAGE_KEY, serializeExpanded(next));
      } catch {
        // storage full or disabled: the state just is not kept
      }
      return next;
    });
  }, []);
  return [expanded, update] as const;
}

export type UpdateExpanded = ReturnType<typeof useExpandedFolders>[1];
