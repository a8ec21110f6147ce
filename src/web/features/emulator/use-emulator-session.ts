import { useCallback, useEffect, useRef, useState } from 'react';
import { endEmulatorSession, requestEmulatorScreen, type EmulatorScreen } from './emulator.api';
import { MODAL_REOPEN_DELAY_MS, createSessionId } from './emulator-session';

/**
 * `idle`: the dial pad; `waiting`: a request is out (the phone shows 'USSD code running...');
 * `open`: the menu display modal shows `screen`.
 */
export type SessionPhase = 'idle' | 'waiting' | 'open';

export interface EmulatorSessionState {
  phase: SessionPhase;
  screen: EmulatorScreen | null;
  /** The last session's id; kept after it ends so the debug panel still shows what it collected. */
  sessionId: string | null;
}

interface SessionOptions {
  appId: string;
  msisdn: string;
  network: string;
  /** A deployed version to run instead of the draft. */
  version?: number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One emulator session: dialling sends mode 'start' with a new session id (the current time,
 * yyyyMMddHHmmss, then random characters: createSessionId) and the dialled string as userdata; a reply sends 'continue', hides the modal and shows it
 * again no sooner than 500 ms later with the new text; Cancel sends 'end'. Answers to a session that was
 * cancelled or replaced meanwhile are dropped.
 */
export function useEmulatorSession({ appId, msisdn, network, version }: SessionOptions) {
  const [state, setState] = useState<EmulatorSessionState>({ phase: 'idle', screen: null, sessionId: null });
  // Bumped by every dial, reply and cancel: an answer whose turn has passed is ignored.
  const turn = useRef(0);
  const live = useRef({ sessionId: null as string | null, isOpen: false, msisdn, network, appId, version });
  live.current.msisdn = msisdn;
  live.current.network = network;
  live.current.appId = appId;
  live.current.version = version;

  const dial = useCallback(async (dialled: string) => {
    const myTurn = ++turn.current;
    const sessionId = createSessionId(new Date());
    const { msisdn, network, appId, version } = live.current;
    live.current.sessionId = sessionId;
    live.current.isOpen = true;
    setState({ phase: 'waiting', screen: null, sessionId });
    const screen = await requestEmulatorScreen({
      session_id: sessionId,
      userdata: dialled,
      msisdn,
      session_mode: 'start',
      network_id: network,
      appId,
      version,
    });
    if (turn.current !== myTurn) return;
    live.current.isOpen = screen.sessionMode === 'continue';
    setState({ phase: 'open', screen, sessionId });
  }, []);

  const reply = useCallback(async (input: string) => {
    const { sessionId, msisdn, network, appId, version } = live.current;
    if (!sessionId || !live.current.isOpen) return;
    const myTurn = ++turn.current;
    setState((current) => ({ ...current, phase: 'waiting' }));
    const [screen] = await Promise.all([
      requestEmulatorScreen({
        session_id: sessionId,
        userdata: input,
        msisdn,
        session_mode: 'continue',
        network_id: network,
        appId,
        version,
      }),
      wait(MODAL_REOPEN_DELAY_MS),
    ]);
    if (turn.current !== myTurn) return;
    live.current.isOpen = screen.sessionMode === 'continue';
    setState({ phase: 'open', screen, sessionId });
  }, []);

  const cancel = useCallback(() => {
    ++turn.current;
    const { sessionId, msisdn, network, appId, version, isOpen } = live.current;
    if (sessionId && isOpen) endEmulatorSession({ session_id: sessionId, msisdn, network_id: network, appId, version });
    live.current.isOpen = false;
    setState((current) => ({ phase: 'idle', screen: null, sessionId: current.sessionId }));
  }, []);

  // Leaving the page mid-session ends it on the server too, as hanging up would.
  useEffect(
    () => () => {
      const { sessionId, msisdn, network, appId, version, isOpen } = live.current;
      if (sessionId && isOpen) endEmulatorSession({ session_id: sessionId, msisdn, network_id: network, appId, version });
      live.current.isOpen = false;
      ++turn.current;
    },
    [],
  );

  return { ...state, dial, reply, cancel };
}
