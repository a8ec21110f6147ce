import { z } from 'zod';
import { VALIDATION_METHODS } from './operators';

/**
 * One check on the user's input, run in order before the input is stored. The first failure re-shows
 * the menu under `errorMessage`. `validationFunction` is the code of the `javascript` method: it sees
 * `input` and `session` and passes when it returns a truthy value (or `{ valid: true }`).
 */
export const inputValidationSchema = z.object({
  validationMethod: z.enum(VALIDATION_METHODS).default('isNumeric'),
  compareValue: z.string().max(1000).default(''),
  errorMessage: z.string().max(500).default(''),
  validationFunction: z.string().max(100_000).default(''),
});
export type InputValidation = z.infer<typeof inputValidationSchema>;

/** Shown when a failing validation has no error message of its own. */
export const DEFAULT_VALIDATION_MESSAGE = 'Invalid input';

/** A new validation in the form: the default method is isNumeric. */
export function createValidationDraft(): InputValidation {
  return { validationMethod: 'isNumeric', compareValue: '', errorMessage: '', validationFunction: '' };
}
