import type { ComponentType } from 'react';
import type { Action, ActionKind } from '../../../../shared/app';
import type { FormErrors } from '../menu-form-state';
import type { ActionCodeFormProps } from './action-code-form.types';
import { CustomActionForm } from './custom-action-form';
import { DbaccessForm } from './dbaccess-form';
import { JavascriptForm } from './javascript-form';
import { PaymentpromptForm } from './paymentprompt-form';
import { RestapiForm } from './restapi-form';
import { SendsmsForm } from './sendsms-form';

/** One form per action kind; the build breaks until every kind has one. */
const ACTION_CODE_FORMS = {
  javascript: JavascriptForm,
  restapi: RestapiForm,
  dbaccess: DbaccessForm,
  sendsms: SendsmsForm,
  paymentprompt: PaymentpromptForm,
  customAction: CustomActionForm,
} satisfies { [K in ActionKind]: ComponentType<ActionCodeFormProps<K>> };

/** The kind-specific fields of an action. */
export function ActionCodeFields({
  action,
  onChange,
  errors,
}: {
  action: Action;
  onChange: (code: Action['code']) => void;
  errors: FormErrors;
}) {
  const Form = ACTION_CODE_FORMS[action.inheritsPlugin] as ComponentType<ActionCodeFormProps<ActionKind>>;
  return <Form code={action.code} onChange={onChange} errors={errors} />;
}
