import { Outlet, useParams } from 'react-router';
import { AppNotFoundPanel } from './app-not-found-panel';
import { AppNotFoundError, useApp } from './use-apps';

/**
 * The layout route around every screen of one app (designer, flow map, settings, dashboard, logs, live data,
 * session lists, search) and of one bot (`isBot`: its designer and settings): when the app answers 404 the screen
 * is replaced by 'App not found' (or 'Bot not found') and the way back to the list, instead of each screen
 * waiting on data that will never come. The screens render meanwhile, so a good id costs nothing. Older routes
 * name the id `:id`, newer ones `:appId`.
 */
export function AppScreenGuard({ isBot = false }: { isBot?: boolean }) {
  const params = useParams();
  const { error } = useApp(params.appId ?? params.id ?? '');
  return error instanceof AppNotFoundError ? <AppNotFoundPanel isBot={isBot} /> : <Outlet />;
}
