/**
 * For the runners' tests: an action's input as the engine builds it (scope, deadline, a Liquid renderer with
 * the engine's options). Not used by the runners themselves.
 */
import { Liquid } from 'liquidjs';
import type { ActionKind } from '../shared/app';
import type { ActionInput, TemplateScope } from '../shared/actions/runner';

const liquid = new Liquid({ templates: {}, ownPropertyOnly: true });

export function testScope(
  session: Partial<TemplateScope['session']> = {},
  input = '',
  app: TemplateScope['app'] = { name: 'Shop', shortCode: '*123#' },
): TemplateScope {
  return {
    session: {
      sessionId: 's1',
      mobile: '233244000000',
      network: 'MTN',
      serviceCode: '*123#',
      language: '',
      inputs: {},
      vars: {},
      ...session,
    },
    inRequest: { input },
    actions: {},
    app,
    contact: {},
  };
}

export function testInput<K extends ActionKind>(
  kind: K,
  code: ActionInput<K>['action']['code'],
  options: {
    scope: TemplateScope;
    actionName?: string;
    actionType?: 'pre' | 'post';
    deadline?: number;
    menu?: string;
    appId?: string;
    ownerId?: string;
  },
): ActionInput<K> {
  const { scope } = options;
  return {
    action: { actionName: options.actionName ?? 'action', actionType: options.actionType ?? 'post', inheritsPlugin: kind, code },
    appId: options.appId ?? 'app-1',
    ownerId: options.ownerId ?? 'owner-1',
    menu: { uniqueId: 'm1', identifier: options.menu ?? 'main' },
    scope,
    deadline: options.deadline ?? Date.now() + 3_000,
    renderTemplate: (source) => liquid.parseAndRenderSync(source, scope),
  } as ActionInput<K>;
}
