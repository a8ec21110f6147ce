import { EmulatorTopbar } from './emulator-topbar';
import { Badge } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { UNAUTHORIZED_EVENT } from '../../lib/api';
import { LOGIN_PATH, toSafeReturnPath, useLoginPath } from '../../lib/return-path';
import { clearSession, getToken } from '../../lib/session';
import { emulatorAppQuery, templateAppsQuery, toAppLookup, type EmulatorApp } from './emulator.api';
import { DEFAULT_MSISDN, DEFAULT_NETWORK, MAX_DIAL_LENGTH, isDialKey, isUssdCode, toDialDigits, toMsisdn } from './emulator-session';
import { isControl, isDialPadButton, isTypingTarget } from './emulator-keyboard';
import { ActionLogsPanel } from './action-logs-panel';
import { DebugOutputPanel } from './debug-output-panel';
import { EmulatorPhoneFrame } from './emulator-phone-frame';
import { EmulatorStatusPage } from './emulator-status-page';
import { MenuDisplayModal, MenuRunningIndicator, MenuScreenAnnouncer } from './menu-display-modal';
import { PhoneDialPad } from './phone-dial-pad';
import { SaveTestCaseButton } from './save-test-case-button';
import { useActionLogs } from './use-action-logs';
import { useDebugOutput } from './use-debug-output';
import { useEmulatorSession } from './use-emulator-session';
import classes from './emulator.module.css';
import { APP_LIST_PATH, designerPath, sessionPathUrl, versionViewPath } from '../../lib/paths';

const DIALER_MOBILE_KEY = 'dialerMobile';

/** The signed-in route has no console layout to catch a 401, so the page does it itself (the bots' chat simulator too). */
export function useUnauthorizedRedirect(isActive: boolean) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!isActive) return;
    function handleUnauthorized() {
      clearSession();
      queryClient.clear();
      void navigate(LOGIN_PATH, { replace: true });
    }
    window.addEventListener(UNAUTHORIZED_EVENT, handleUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, handleUnauthorized);
  }, [isActive, navigate, queryClient]);
}

/**
 * Emulator home for /app/emulator/{appId} (a signed-in user's app, read with the token) and
 * /apptemplate/emulator/{appId}?returnUrl= (a featured template, no sign-in). Both run outside the console layout.
 */
export function EmulatorHomePage({ source }: { source: 'app' | 'template' }) {
  const { appId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const isTemplate = source === 'template';
  const hasToken = !!getToken();
  const loginPath = useLoginPath();
  useUnauthorizedRedirect(!isTemplate);

  // The app's own call or the templates', under their keys: one of the two runs, as the route says.
  const options = { retry: false, staleTime: 60_000 } as const;
  const app = useQuery({ ...emulatorAppQuery(appId), ...options, enabled: !isTemplate && hasToken });
  const templates = useQuery({ ...templateAppsQuery(), ...options, enabled: isTemplate });
  const lookup = isTemplate ? templates : app;

  if (!isTemplate && !hasToken) return <Navigate to={loginPath} replace />;

  const homeUrl = isTemplate ? (toSafeReturnPath(searchParams.get('returnUrl')) ?? '') : designerPath(appId);
  if (lookup.isPending) return <EmulatorStatusPage kind="loading" />;
  const result = toAppLookup(appId, lookup.data, lookup.error);
  if (result.kind === 'failed') {
    return (
      <EmulatorStatusPage
        kind="failed"
        detail={result.detail}
        homeUrl={isTemplate ? homeUrl : APP_LIST_PATH}
        onRetry={() => void lookup.refetch()}
      />
    );
  }
  if (result.kind === 'not-found') {
    return <EmulatorStatusPage kind="not-found" appId={appId} isTemplate={isTemplate} homeUrl={isTemplate ? homeUrl : APP_LIST_PATH} />;
  }
  // `?version=N`: a deployed version, opened from the versions list (its builder's only: the server refuses others).
  const version = isTemplate ? undefined : toVersionNumber(searchParams.get('version'));
  return (
    <EmulatorWorkspace
      key={`${result.app.appId}:${version ?? 'draft'}`}
      app={result.app}
      homeUrl={version ? versionViewPath(appId, version) : homeUrl}
      isTemplate={isTemplate}
      version={version}
    />
  );
}

function readStoredMsisdn(): string {
  return localStorage.getItem(DIALER_MOBILE_KEY) || DEFAULT_MSISDN;
}

/** A version number from the address, or undefined for anything else (the draft runs). */
function toVersionNumber(value: string | null): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) && n >= 1 ? n : undefined;
}

function EmulatorWorkspace({
  app,
  homeUrl,
  isTemplate,
  version,
}: {
  app: EmulatorApp;
  homeUrl: string;
  isTemplate: boolean;
  version: number | undefined;
}) {
  const navigate = useNavigate();
  const [number, setNumber] = useState(() => toDialDigits(app.shortCode));
  const [dialError, setDialError] = useState<string | null>(null);
  const [msisdn, setMsisdn] = useState(readStoredMsisdn);
  const [pressedKey, setPressedKey] = useState<string | null>(null);
  const pressTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const session = useEmulatorSession({ appId: app.appId, msisdn, network: DEFAULT_NETWORK, version });
  // Logs and debug data need a signed-in user; a template's are given out one session at a time.
  const canReadLogs = !!getToken();
  const logs = useActionLogs(app.appId, session.sessionId, !canReadLogs ? 'off' : isTemplate ? 'session' : 'always');
  const debug = useDebugOutput(app.appId, session.sessionId, canReadLogs);

  useEffect(() => {
    const previous = document.title;
    document.title = `${app.appName} · Emulator · Dialflow`;
    return () => {
      document.title = previous;
    };
  }, [app.appName]);

  useEffect(() => () => clearTimeout(pressTimer.current), []);

  const flashKey = useCallback((key: string) => {
    setPressedKey(key);
    clearTimeout(pressTimer.current);
    pressTimer.current = setTimeout(() => setPressedKey(null), 140);
  }, []);

  const press = useCallback((key: string) => {
    setDialError(null);
    setNumber((current) => (current.length >= MAX_DIAL_LENGTH ? current : current + key));
  }, []);

  const backspace = useCallback(() => {
    setDialError(null);
    setNumber((current) => current.slice(0, -1));
  }, []);

  const { dial: dialSession, phase } = session;

  // When the phone's screen closes (ended, cancelled) the focus it held would fall to the page: it goes back to
  // the Call key that opened it, so the keyboard carries on from there.
  const callButtonRef = useRef<HTMLButtonElement>(null);
  const previousPhase = useRef(phase);
  useEffect(() => {
    const isClosed = previousPhase.current !== 'idle' && phase === 'idle';
    previousPhase.current = phase;
    if (isClosed && (!document.activeElement || document.activeElement === document.body)) callButtonRef.current?.focus();
  }, [phase]);
  const dial = useCallback(() => {
    if (!number) return setDialError('Type a USSD code to dial');
    if (!isUssdCode(number)) return setDialError('A USSD code starts with * and ends with #');
    if (!msisdn) return setDialError('Enter a Dial Number in the debug panel');
    setDialError(null);
    void dialSession(number);
  }, [number, msisdn, dialSession]);

  // Typing on the keyboard works like the keys: digits, * and #, Backspace, Enter to call. Enter calls from
  // the dial pad's own buttons too (a clicked key keeps the focus); Space still presses a focused key.
  useEffect(() => {
    if (phase !== 'idle') return;
    function handleKeyDown(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      if (isDialKey(event.key)) {
        event.preventDefault();
        press(event.key);
        flashKey(event.key);
      } else if (event.key === 'Backspace') {
        event.preventDefault();
        backspace();
      } else if (event.key === 'Enter' && (isDialPadButton(event.target) || !isControl(event.target))) {
        event.preventDefault();
        dial();
      }
    }
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [phase, press, backspace, dial, flashKey]);

  function changeMsisdn(value: string) {
    const next = toMsisdn(value);
    setMsisdn(next);
    if (next) localStorage.setItem(DIALER_MOBILE_KEY, next);
  }

  function goBack() {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(homeUrl || '/');
  }

  const isSessionOpen = phase !== 'idle' && session.screen?.sessionMode !== 'end';
  const hint = dialError
    ? { text: dialError, isError: true }
    : {
        text: isTemplate
          ? 'Press the green key to try this template'
          : `Press the green key to run ${version ? `version ${version}` : 'your draft'}`,
        isError: false,
      };

  return (
    <main className={classes.page}>
      <EmulatorTopbar
        eyebrow={isTemplate ? 'Template test run' : 'Emulator'}
        title={app.appName}
        badges={
          <>
            {app.shortCode && (
              <Badge variant="light" color="teal" radius="sm" size="lg" ff="monospace" styles={{ label: { textTransform: 'none' } }}>
                {app.shortCode}
              </Badge>
            )}
            <Badge variant="outline" color={version ? 'orange' : 'gray'} radius="sm">
              {isTemplate ? 'Template' : version ? `Version ${version}` : 'Draft'}
            </Badge>
          </>
        }
        note={
          isTemplate
            ? 'Dial the template as your customers would, then clone it to make it your own.'
            : version
              ? `The emulator runs deployed version ${version} as it was deployed, not your draft.`
              : 'The emulator runs your latest saved draft, so you can test changes before you deploy them.'
        }
      />

      <div className={classes.layout}>
        <div className={classes.phoneColumn}>
          <EmulatorPhoneFrame network={DEFAULT_NETWORK}>
            <PhoneDialPad
              number={number}
              appName={app.appName}
              hint={hint}
              pressedKey={pressedKey}
              homeUrl={homeUrl}
              isDialling={phase !== 'idle'}
              callButtonRef={callButtonRef}
              onPress={press}
              onBackspace={backspace}
              onDial={dial}
            />
            {phase === 'waiting' && <MenuRunningIndicator />}
            {phase === 'open' && session.screen && (
              <MenuDisplayModal screen={session.screen} onSend={(input) => void session.reply(input)} onCancel={session.cancel} />
            )}
            <MenuScreenAnnouncer screen={phase === 'open' ? session.screen : null} />
          </EmulatorPhoneFrame>
          <div className={classes.keyboardHint}>
            Or type: <span className={classes.kbd}>0–9</span> <span className={classes.kbd}>*</span> <span className={classes.kbd}>#</span>{' '}
            <span className={classes.kbd}>⌫</span> <span className={classes.kbd}>Enter</span> to call
          </div>
        </div>

        <div className={classes.panels}>
          <ActionLogsPanel lines={logs.lines} status={logs.status} onClear={logs.clear} />
          <DebugOutputPanel
            msisdn={msisdn}
            msisdnError={msisdn ? null : 'Enter the number to dial from'}
            network={DEFAULT_NETWORK}
            isMsisdnLocked={isSessionOpen}
            sessionId={session.sessionId}
            pathUrl={!isTemplate && session.sessionId ? sessionPathUrl(app.appId, session.sessionId) : null}
            sessionActions={
              // Recording reads the signed-in builder's own runs of their own app: not a template tried.
              !isTemplate && canReadLogs && session.sessionId ? (
                <SaveTestCaseButton appId={app.appId} sessionId={session.sessionId} />
              ) : null
            }
            isSignedOut={!canReadLogs}
            userInputs={debug.userInputs}
            actionResults={debug.actionResults}
            onMsisdnChange={changeMsisdn}
            onBack={goBack}
          />
        </div>
      </div>
    </main>
  );
}
