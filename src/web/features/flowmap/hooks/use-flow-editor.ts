import { showToast } from '../../../lib/toast';
import { useRef, useState } from 'react';
import type { Menu, MenuBody } from '../../../../shared/app';
import { failureText, isOk } from '../../../lib/api';
import { findMenus } from '../../../../shared/api/menus.calls';
import { call } from '../../../lib/call';
import type { MenuSaveResult, useAppMenus } from '../../menus/use-app-menus';
import { orderWithFirst, repointRules, toRecreateBody, withoutRule, withRule, withRuleTarget, type RuleDraft } from '../flow-edits';
import { ruleLabel } from '../flow-graph';

type AppMenus = ReturnType<typeof useAppMenus>;

/** One change made on the map and how to take it back. */
interface FlowChange {
  /** 'Add rule = 2 from home', shown on the Undo button. */
  label: string;
  undo: () => Promise<boolean>;
}

/** Rule changes save without a toast: the map shows them at once (refusals are still toasted). */
const QUIET = { quiet: true };

/** The changes kept for Undo; older ones drop off. */
const UNDO_DEPTH = 20;

const nameOf = (m: Pick<Menu, 'userDefinedName' | 'uniqueId'>) => m.userDefinedName || m.uniqueId;

/**
 * The flow map's edits: each goes through the menu list's calls (the server validates it the same way), reads
 * the menu fresh first (so a rule drawn here never replaces what another tab saved meanwhile), and is kept for
 * Undo. Every call's outcome is toasted by useAppMenus; these return whether the change was made.
 */
export function useFlowEditor(appId: string, data: AppMenus) {
  const [history, setHistory] = useState<FlowChange[]>([]);
  /** The same list, read by a change that waited its turn (the state it closed over may be older). */
  const historyRef = useRef<FlowChange[]>([]);
  const [busyCount, setBusyCount] = useState(0);
  /** Changes run one after another, in the order they were asked for. */
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const setKept = (next: FlowChange[]) => {
    historyRef.current = next;
    setHistory(next);
  };
  const remember = (change: FlowChange) => setKept([...historyRef.current.slice(-(UNDO_DEPTH - 1)), change]);

  /** Runs a change after those before it, then reads the lists again. */
  function run(change: () => Promise<boolean>): Promise<boolean> {
    setBusyCount((n) => n + 1);
    const turn = queue.current.then(async () => {
      try {
        return await change();
      } finally {
        await data.refreshMenus();
        setBusyCount((n) => n - 1);
      }
    });
    queue.current = turn.catch(() => undefined);
    return turn;
  }

  /** The app's menus as saved now; null (toasted) when they cannot be read. */
  async function readMenus(): Promise<Menu[] | null> {
    const reply = await call(findMenus, { params: { appId } });
    if (isOk(reply) && reply.data) return reply.data;
    showToast({ color: 'red', title: 'Not changed', message: failureText(reply, 'The menus could not be read.') });
    return null;
  }

  async function readMenu(menuId: string): Promise<{ menu: Menu; menus: Menu[] } | null> {
    const menus = await readMenus();
    const menu = menus?.find((m) => m.uniqueId === menuId);
    if (menus && !menu)
      showToast({
        color: 'yellow',
        title: 'Not changed',
        message: 'This menu is no longer in the app; the map now shows the app as saved.',
      });
    return menu && menus ? { menu, menus } : null;
  }

  /**
   * Changes one rule of a menu as the map shows it: when the saved rule is no longer the one drawn (another tab
   * changed the menu), nothing is changed and the map is read again.
   */
  async function changeRule(
    menuId: string,
    index: number,
    shown: Menu['switchOperations'][number],
    change: (m: Menu) => Menu,
    label: string,
  ) {
    return run(async () => {
      const read = await readMenu(menuId);
      if (!read) return false;
      const saved = read.menu.switchOperations[index];
      if (!saved || JSON.stringify(saved) !== JSON.stringify(shown)) {
        showToast({
          color: 'yellow',
          title: 'Not changed',
          message: `This rule of ${nameOf(read.menu)} was changed elsewhere; the map now shows it as saved.`,
        });
        return false;
      }
      return (await updateRemembered(read.menu, change(read.menu), label)).ok;
    });
  }

  /** Saves a menu's new state, Undo saving the state before it. */
  async function updateRemembered(before: Menu, after: Menu, label: string): Promise<MenuSaveResult> {
    const saved = await data.saveMenu(after, null, QUIET);
    if (saved.ok) remember({ label, undo: async () => (await data.saveMenu(before, null, QUIET)).ok });
    return saved;
  }

  /** A rule drawn from `fromId` to `toId`. Returns the server's field errors when it refuses the rule. */
  async function addRule(fromId: string, toId: string, rule: RuleDraft) {
    let errors: { field: string; message: string }[] | undefined;
    const ok = await run(async () => {
      const read = await readMenu(fromId);
      if (!read) return false;
      const target = read.menus.find((m) => m.uniqueId === toId);
      if (!target) {
        showToast({ color: 'yellow', title: 'Not changed', message: 'The menu this rule goes to is no longer in the app.' });
        return false;
      }
      const label = `Add rule ${ruleLabel(rule)} from ${nameOf(read.menu)} to ${nameOf(target)}`;
      const saved = await updateRemembered(read.menu, withRule(read.menu, rule, toId), label);
      if (!saved.ok) errors = saved.errors;
      return saved.ok;
    });
    return { ok, errors };
  }

  const rewireRule = (menu: Menu, index: number, toId: string) => {
    const rule = menu.switchOperations[index]!;
    return changeRule(
      menu.uniqueId,
      index,
      rule,
      (m) => withRuleTarget(m, index, toId),
      `Rewire rule ${ruleLabel(rule)} of ${nameOf(menu)}`,
    );
  };

  const deleteRule = (menu: Menu, index: number) => {
    const rule = menu.switchOperations[index]!;
    return changeRule(menu.uniqueId, index, rule, (m) => withoutRule(m, index), `Delete rule ${ruleLabel(rule)} of ${nameOf(menu)}`);
  };

  /** The side panel's form: a new menu or an edit, Undo taking it back (an edit restores what it replaced). */
  const saveMenu = (body: MenuBody, opened: Menu | null) =>
    run(async () => {
      const saved = await data.saveMenu(body, opened);
      if (!saved.ok) return false;
      const name = body.userDefinedName.trim();
      if (!body.uniqueId) remember({ label: `Add menu ${name}`, undo: () => data.removeMenu(saved.uniqueId) });
      else {
        const before = saved.replaced ?? opened;
        if (before) remember({ label: `Edit menu ${name}`, undo: async () => (await data.saveMenu(before, null, QUIET)).ok });
      }
      return true;
    }).then((ok) => (ok ? { ok: true as const } : { ok: false as const }));

  /** Deletes a menu; Undo creates it again in its place and points the rules that named it at the new one. */
  const deleteMenu = (menu: Menu) =>
    run(async () => {
      const menus = await readMenus();
      if (!menus) return false;
      const order = menus.map((m) => m.uniqueId);
      const saved = menus.find((m) => m.uniqueId === menu.uniqueId) ?? menu;
      if (!(await data.removeMenu(menu.uniqueId))) return false;
      remember({
        label: `Delete menu ${nameOf(menu)}`,
        undo: async () => {
          const again = await data.saveMenu(toRecreateBody(saved, order));
          if (!again.ok) return false;
          const now = await readMenus();
          for (const m of repointRules(now ?? [], saved.uniqueId, again.uniqueId)) {
            if (!(await data.saveMenu(m, null, QUIET)).ok) return false;
          }
          return true;
        },
      });
      return true;
    });

  /** Moves a menu to the top of the order: the first menu in order is the one a session starts on. */
  const makeFirst = (menu: Menu) =>
    run(async () => {
      const menus = await readMenus();
      if (!menus) return false;
      const order = menus.map((m) => m.uniqueId);
      if (!(await data.saveOrder(orderWithFirst(order, menu.uniqueId)))) return false;
      remember({ label: `Make ${nameOf(menu)} the first menu`, undo: () => data.saveOrder(order) });
      return true;
    });

  /** Takes back the last change (once the changes asked for before it are made); a refused undo stays on the list. */
  const undo = () =>
    run(async () => {
      const last = historyRef.current.at(-1);
      if (!last) return false;
      if (!(await last.undo())) return false;
      setKept(historyRef.current.filter((c) => c !== last));
      showToast({ color: 'blue', title: 'Undone', message: last.label });
      return true;
    });

  return {
    addRule,
    rewireRule,
    deleteRule,
    saveMenu,
    deleteMenu,
    makeFirst,
    undo,
    lastChange: history.at(-1)?.label ?? null,
    isBusy: busyCount > 0,
  };
}
