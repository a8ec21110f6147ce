/** Input validation: the menu's checks in order; the first failure decides. */
import type { InputValidation } from '../shared/app';
import { runScriptValidation } from './actions';
import type { CompiledMenu } from './compile';
import { emitEvent, getLabels, getTranslation, type HopContext } from './context';

export type ValidationVerdict = { ok: true } | { ok: false; message: string; validation: InputValidation };

/** null when the hop was halted (a script blew the budget). */
export async function validateInput(ctx: HopContext, menu: CompiledMenu, input: string): Promise<ValidationVerdict | null> {
  const translated = getTranslation(ctx, menu)?.errorMessages;
  for (const check of menu.validations) {
    const { validation } = check;
    let passed: boolean;
    let message = translated?.[check.index] || validation.errorMessage.trim() || getLabels(ctx).invalidInput;
    if (validation.validationMethod === 'javascript') {
      const verdict = await runScriptValidation(ctx, menu, check);
      if (verdict === null) return null;
      passed = verdict.passed;
      if (!verdict.passed && verdict.message) message = verdict.message.slice(0, 500);
    } else if (check.test === null) {
      // An unusable compare value (saved before the rule existed, or imported) is the builder's fault,
      // not the user's: log it and let the input through.
      emitEvent(ctx, 'error_logged', 'error', `Validation ${check.index + 1} skipped: ${check.error}`, { menu });
      continue;
    } else {
      passed = check.test(input);
    }
    if (!passed) {
      emitEvent(ctx, 'validation_failed', 'info', message, {
        menu,
        data: { index: check.index, method: validation.validationMethod, input },
      });
      return { ok: false, message, validation };
    }
  }
  return { ok: true };
}
