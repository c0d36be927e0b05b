/**
 * Text as it may be stored on a board: control characters other than tab and line feed are dropped
 * (a NUL was saved, synced and drawn as a box), and a lone surrogate becomes U+FFFD, which is what
 * every other client and the server get anyway once the update is UTF-8 encoded, so the author's copy
 * no longer differs from everyone else's.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD');
}
