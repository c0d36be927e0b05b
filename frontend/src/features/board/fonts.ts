/**
 * The fonts the board is drawn with, the same files the export service renders with (DejaVu Sans
 * for text, Noto Emoji for emoji): without them a machine that lacks DejaVu Sans draws stickies in
 * its own fallback font, and the canvas no longer looks like the PNG/PDF of the same board.
 * Imported by the board page only, so other pages never download them.
 */
import { useEffect, useState } from 'react';
import '@fontsource/dejavu-sans/400.css';
import '@fontsource/dejavu-sans/700.css';
import '@fontsource/noto-emoji/400.css';

/** Longest the page waits for the fonts before drawing anyway (the canvas redraws when they arrive). */
const FONT_WAIT_MS = 1_500;

let loading: Promise<unknown> | undefined;

function loadBoardFonts(): Promise<unknown> {
  loading ??= Promise.race([
    Promise.all([
      document.fonts.load('16px "DejaVu Sans"', 'Aa Жж'),
      document.fonts.load('bold 16px "DejaVu Sans"', 'Aa Жж'),
      document.fonts.load('16px "Noto Emoji"', '👍'),
    ]).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS)),
  ]);
  return loading;
}

/** True once the board's fonts are ready (or took too long); started on the first render, beside the board call and the socket. */
export function useBoardFonts(): boolean {
  const [ready, setReady] = useState(() => document.fonts?.check?.('16px "DejaVu Sans"', 'Aa Жж') ?? true);
  useEffect(() => {
    if (ready || !document.fonts) return;
    let alive = true;
    void loadBoardFonts().then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, [ready]);
  return ready;
}
