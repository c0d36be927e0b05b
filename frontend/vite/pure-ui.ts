import type { Plugin } from 'vite';

/** The UI layer's primitives (src/components/ui/*.tsx): each is a component plus its CSS module. */
const UI_MODULE = /\/src\/components\/ui\/[^/]+\.tsx$/;

/**
 * Marks the UI layer's modules free of side effects, so a page importing one primitive from the
 * barrel (components/ui/index.ts) no longer gets every primitive and its Radix package: a module's
 * CSS import counted as a side effect and kept them all (issue 36 item 6).
 */
export function pureUiModules(): Plugin {
  return {
    name: 'wb:pure-ui-modules',
    apply: 'build',
    transform(_code, id) {
      return UI_MODULE.test(id) ? { moduleSideEffects: false } : null;
    },
  };
}
