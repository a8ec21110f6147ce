/**
 * For the runners' tests: an action's input as the engine builds it (scope, deadline, a Liquid renderer with
 * the engine's options). Not used by the runners themselves.
 */
import { Liquid } from 'liquidjs';
import type { ActionKind } from '../shared/app';
import type { ActionInput, ActionScope } from './types';

const liquid = new Liquid({ templates: {}, ownPropertyOnly: true });

export function testScope(session: Partial<ActionScope['session']> = {}, input = '', app: ActionScope['app'] = { name: 'Shop', shortCode: '*123#' }): ActionScope {
  return {
    session: { sessionId: 's1', mobile: '233244000000', network: 'MTN', serviceCode: '*123#', inputs: {}, vars: {}, ...session },
    inRequest: { input },
    actions: {},
    app,
  };
}

export function testInput<K extends ActionKind>(
  kind: K,
  code: ActionInput<K>['action']['code'],
  options: { scope: ActionScope; actionName?: string; actionType?: 'pre' | 'post'; deadline?: number; menu?: string },
): ActionInput<K> {
  const { scope } = options;
  return {
    action: { actionName: options.actionName ?? 'action', actionType: options.actionType ?? 'post', inheritsPlugin: kind, code },
    appId: 'app-1',
    ownerId: 'owner-1',
    menu: { uniqueId: 'm1', identifier: options.menu ?? 'main' },
    scope,
    deadline: options.deadline ?? Date.now() + 3_000,
    renderTemplate: (source) => liquid.parseAndRenderSync(source, scope),
  } as ActionInput<K>;
}
