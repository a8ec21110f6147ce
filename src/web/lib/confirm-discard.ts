import { modals } from '@mantine/modals';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before unsaved changes are thrown away (the designer's menu form, the custom function editor); runs
 * `onDiscard` at once when there are none. `onKeep` runs when the user keeps editing (any other way of closing too).
 */
export function confirmDiscard(isDirty: boolean, onDiscard: () => void, question: string, onKeep?: () => void) {
  if (!isDirty) return onDiscard();
  let isDiscarded = false;
  modals.openConfirmModal({
    title: 'Discard changes?',
    centered: true,
    children: question,
    labels: { confirm: 'Discard', cancel: 'Keep editing' },
    confirmProps: { color: 'red' },
    onConfirm: () => {
      isDiscarded = true;
      onDiscard();
    },
    onClose: () => {
      if (!isDiscarded) onKeep?.();
    },
  });
}

/**
 * Asks with {@link confirmDiscard} before a screen with unsaved changes is left for another one (a link, Back,
 * the sidebar); closing or reloading the tab gets the browser's own question.
 */
export function useLeaveGuard(isDirty: boolean, question: string) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => isDirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    confirmDiscard(
      true,
      () => blocker.proceed(),
      question,
      () => blocker.reset(),
    );
  }, [blocker, question]);
  useEffect(() => {
    if (!isDirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [isDirty]);
}
