import type { Plugin } from 'vite';

/**
 * Yjs reads every map key and string of a document through lib0's `readVarString`, which calls
 * `TextDecoder.decode` once per string. A 5,000-object board holds some 65,000 such strings, most a few
 * ASCII bytes long ("x", "fill", "zIndex"), and the per-call cost of TextDecoder was ~10 % of a warm
 * board open. Short ASCII strings are built in JavaScript instead; anything else still goes through
 * TextDecoder, so the result is the same string. The build fails if lib0 changes the line it patches.
 */
const ORIGINAL = 'export const readVarString = string.utf8TextDecoder ? _readVarStringNative : _readVarStringPolyfill';

const FAST = `const _readVarStringFast = decoder => {
  const len = readVarUint(decoder)
  const arr = decoder.arr
  const start = decoder.pos
  if (len <= 32 && start + len <= arr.length) {
    let s = ''
    let i = start
    for (; i < start + len; i++) {
      const c = arr[i]
      if (c > 0x7f) break
      s += String.fromCharCode(c)
    }
    if (i === start + len) {
      decoder.pos = i
      return s
    }
  }
  decoder.pos = start
  return string.utf8TextDecoder.decode(readUint8Array(decoder, len))
}
export const readVarString = string.utf8TextDecoder ? _readVarStringFast : _readVarStringPolyfill`;

export function fastShortStrings(): Plugin {
  return {
    name: 'wb:lib0-fast-short-strings',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]lib0[\\/]decoding\.js$/.test(id)) return null;
      if (!code.includes(ORIGINAL)) this.error('lib0/decoding.js changed: review vite/fast-short-strings.ts');
      return { code: code.replace(ORIGINAL, FAST), map: null };
    },
  };
}
