import { Button, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

interface DialogActionsProps {
  /** The main button's label: 'Save Provider', 'Confirm and Pay'. */
  submitLabel: ReactNode;
  onCancel: () => void;
  /**
   * Without it the main button submits the form the footer stands in; with it (a dialog that asks a yes, not a form)
   * the button calls it and takes the focus when the dialog opens.
   */
  onConfirm?: () => void;
  isSubmitting?: boolean;
  isDisabled?: boolean;
  mt?: MantineSpacing;
}

/** A dialog's footer: Cancel, then its main button, at the right. */
export function DialogActions({ submitLabel, onCancel, onConfirm, isSubmitting, isDisabled, mt }: DialogActionsProps) {
  return (
    <Group justify="flex-end" gap="sm" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      {onConfirm ? (
        <Button onClick={onConfirm} loading={isSubmitting} disabled={isDisabled} data-autofocus>
          {submitLabel}
        </Button>
      ) : (
        <Button type="submit" loading={isSubmitting} disabled={isDisabled}>
          {submitLabel}
        </Button>
      )}
    </Group>
  );
}

/** A page form's footer: its one submit button, at the right (a dialog's has Cancel too: DialogActions). */
export function FormSubmitRow({ label, isSubmitting }: { label: ReactNode; isSubmitting?: boolean }) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={isSubmitting}>
        {label}
      </Button>
    </Group>
  );
}
