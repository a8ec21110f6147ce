import type { ActionKind, ActionOf } from '../../../../shared/app';
import type { FormErrors } from '../menu-form-state';

/** What every kind's form gets: its `code`, a setter, and its errors keyed under `code` (`url`, `payload`, '' for the code itself). */
export interface ActionCodeFormProps<K extends ActionKind> {
  code: ActionOf<K>['code'];
  onChange: (code: ActionOf<K>['code']) => void;
  errors: FormErrors;
}

export const errorText = (errors: FormErrors, field: string) => errors[field]?.message;
