import { completeFromList, type Completion } from '@codemirror/autocomplete';
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { JAVASCRIPT_SDK, type JavascriptSdkEntry } from '../../shared/app';

function getCompletionType({ kind, label }: JavascriptSdkEntry): string {
  if (kind === 'function') return 'function';
  if (kind === 'snippet') return 'text';
  return label.includes('.') ? 'property' : 'variable';
}

/** The sandbox's SDK (src/shared/app/javascript-sdk.ts) as CodeMirror completions, for every code editor. */
export const JAVASCRIPT_SDK_COMPLETIONS: Completion[] = JAVASCRIPT_SDK.map((entry) => ({
  label: entry.label,
  type: getCompletionType(entry),
  ...(entry.info ? { info: entry.info } : {}),
  ...(entry.apply ? { apply: entry.apply } : {}),
}));

export const javascriptSdkAutocomplete = javascriptLanguage.data.of({ autocomplete: completeFromList(JAVASCRIPT_SDK_COMPLETIONS) });
