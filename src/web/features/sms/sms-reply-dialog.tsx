import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { replyToSms } from '../../../shared/api/sms.calls';
import { SMS_REPLY_MAX_LENGTH, type SmsMessage, smsReplyBodySchema } from '../../../shared/api/sms.schema';
import { DialogActions } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { SMS_KEY, describeReplyOutcome } from './sms.api';

/**
 * Reply as the recipient: the local outbox stands for the network, so the person an SMS went to can be played
 * writing back (POST /api/sms/outbox/:smsId/reply). STOP opts them out of SMS and START back in, as a real reply does.
 */
export function SmsReplyDialog({ sms, onClose }: { sms: SmsMessage | null; onClose: () => void }) {
  return (
    <Modal opened={sms !== null} onClose={onClose} title="Reply as the recipient" centered size="md">
      {sms && <ReplyForm sms={sms} onClose={onClose} />}
    </Modal>
  );
}

function ReplyForm({ sms, onClose }: { sms: SmsMessage; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSending, setSending] = useState(false);

  async function send() {
    const parsed = smsReplyBodySchema.safeParse({ text });
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message ?? 'Write the reply');
    setSending(true);
    setRefusal(null);
    const reply = await call(replyToSms, { params: { smsId: sms.id }, body: parsed.data });
    setSending(false);
    if (!isOk(reply) || !reply.data) return setRefusal(failureText(reply, 'The reply could not be received.'));
    showToast({ color: 'teal', title: 'Reply received', message: describeReplyOutcome(reply.data.msisdn, reply.data.consent) });
    await queryClient.invalidateQueries({ queryKey: SMS_KEY });
    onClose();
  }

  return (
    <form
      noValidate
      aria-label="Reply as the recipient"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <Stack gap="md">
        <FormAlert message={refusal} onClose={() => setRefusal(null)} />
        <Text size="sm">
          The outbox keeps your SMS instead of sending them, so here you write back as {sms.recipient} would: the reply reaches your account
          as a real one does. STOP opts them out of your SMS, START opts them back in.
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {`Replying to: ${sms.message}`}
        </Text>
        <Textarea
          label="Reply"
          placeholder="STOP"
          withAsterisk
          autosize
          minRows={2}
          maxLength={SMS_REPLY_MAX_LENGTH}
          data-autofocus
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setFieldError(null);
          }}
          error={fieldError}
        />
        <DialogActions submitLabel="Send reply" onCancel={onClose} isSubmitting={isSending} />
      </Stack>
    </form>
  );
}
