import { Modal, Text } from '@mantine/core';
import { ContactSendForm } from './contact-send-form';

interface ShortcodeEnquiryModalProps {
  opened: boolean;
  subject: string;
  /** Changes on every open, so the form always starts fresh with the new subject. */
  openCount: number;
  onClose: () => void;
}

/**
 * The Contact modal ('Confirm Purchase'): opens with the subject prefilled, posts to /api/contactus,
 * and closes and resets on success, Cancel or the close button.
 */
export function ShortcodeEnquiryModal({ opened, subject, openCount, onClose }: ShortcodeEnquiryModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Confirm Purchase"
      centered
      size="lg"
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Text c="gray.7" size="sm" mb="md">
        Leave your details and our team will contact you to set up your shortcode.
      </Text>
      <ContactSendForm
        key={openCount}
        layout="modal"
        idPrefix="enquiry"
        initialSubject={subject}
        submitLabel="Submit"
        onSent={onClose}
        onCancel={onClose}
      />
    </Modal>
  );
}
