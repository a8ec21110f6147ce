import { Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { activateSubscriptionBodySchema, extendSubscriptionBodySchema } from '../../../shared/api/billing.schema';
import { PLAN_NAMES, PLANS } from '../../../shared/billing/plans';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { type SubscriptionChange, useChangeSubscription } from './use-billing';
import { DialogActions } from '../../components/dialog-actions';

export type SubscriptionChangeKind = SubscriptionChange['kind'];

/** TRIAL is where accounts start, not a plan to activate (the server refuses it). */
/** The shared rule's plan message names the plans paid for on Account Billing; here Enterprise is offered too. */
const CHOOSE_PLAN = 'Choose a plan';
const PLAN_OPTIONS = PLAN_NAMES.filter((plan) => plan !== 'TRIAL').map((plan) => ({ value: plan, label: PLANS[plan].title }));

interface AdminSubscriptionDialogProps {
  /** Which change the dialog makes, or null when it is closed. */
  kind: SubscriptionChangeKind | null;
  email: string;
  onClose: () => void;
}

/** Extend (days) or Activate plan (plan): with the reason, which is recorded. Checked by the shared rules first. */
export function AdminSubscriptionDialog({ kind, email, onClose }: AdminSubscriptionDialogProps) {
  return (
    <Modal
      opened={kind !== null}
      onClose={onClose}
      title={kind === 'activate' ? 'Activate plan' : 'Extend subscription'}
      centered
      size="md"
    >
      {kind && <ChangeForm kind={kind} email={email} onClose={onClose} />}
    </Modal>
  );
}

type FieldErrors = Partial<Record<'days' | 'plan' | 'reason', string>>;

function ChangeForm({ kind, email, onClose }: { kind: SubscriptionChangeKind; email: string; onClose: () => void }) {
  const change = useChangeSubscription();
  const [days, setDays] = useState('');
  const [plan, setPlan] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setRefusal(null);
    const parsed =
      kind === 'extend'
        ? extendSubscriptionBodySchema.safeParse({ email, days, reason })
        : activateSubscriptionBodySchema.safeParse({ email, plan: plan ?? '', reason });
    if (!parsed.success) {
      const found: FieldErrors = kind === 'activate' && !plan ? { plan: CHOOSE_PLAN } : {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setSaving(true);
    const reply = await change(kind === 'extend' ? { kind, email, reason, days } : { kind, email, reason, plan: plan ?? '' });
    setSaving(false);
    if (isOk(reply)) onClose();
    else setRefusal(failureText(reply, 'The subscription was not changed.'));
  }

  return (
    <form
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={kind === 'activate' ? 'Activate plan' : 'Extend subscription'}
    >
      <Stack gap="md">
        <Text size="sm">
          {kind === 'extend'
            ? 'Adds days to the period end, counted from the later of today and the current end. The plan stays.'
            : "Puts the account on the plan from today, for the plan's period (a year for Enterprise)."}{' '}
          Account: <strong>{email}</strong>
        </Text>
        <FormAlert message={refusal} onClose={() => setRefusal(null)} title="Not changed" />
        {kind === 'extend' ? (
          <TextInput
            label="Days"
            inputMode="numeric"
            autoComplete="off"
            value={days}
            onChange={(event) => {
              setDays(event.currentTarget.value);
              setErrors((e) => ({ ...e, days: undefined }));
            }}
            error={errors.days}
            data-autofocus
          />
        ) : (
          <Select
            label="Plan"
            placeholder="Choose a plan"
            data={PLAN_OPTIONS}
            value={plan}
            onChange={(value) => {
              setPlan(value);
              setErrors((e) => ({ ...e, plan: undefined }));
            }}
            error={errors.plan}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
        )}
        <Textarea
          label="Reason"
          description="Recorded with the change, with your email."
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
            setErrors((e) => ({ ...e, reason: undefined }));
          }}
          error={errors.reason}
        />
        <DialogActions submitLabel={kind === 'extend' ? 'Extend' : 'Activate plan'} onCancel={onClose} isSubmitting={isSaving} />
      </Stack>
    </form>
  );
}
