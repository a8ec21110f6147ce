import { Alert, Button, Group, Skeleton, Stack, useComputedColorScheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDeviceMobile, IconPlus, IconSitemap } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyPanel } from '../../components/list-states';
import { useAppMenus } from '../menus/use-app-menus';
import { toPreviewApp } from '../menus/menu-screen-preview';
import { FlowLegend } from './components/flow-legend';
import { FlowMapCanvas } from './components/flow-map-canvas';
import { FlowMapHeader } from './components/flow-map-header';
import { FlowMapToolbar } from './components/flow-map-toolbar';
import { FlowMenuPanel } from './components/flow-menu-panel';
import { FlowRuleBar } from './components/flow-rule-bar';
import { FlowRuleDialog } from './components/flow-rule-dialog';
import { SessionPathBanner } from './components/flow-session-path-banner';
import { useFlowDecorations } from './hooks/use-flow-decorations';
import { useFlowEditor } from './hooks/use-flow-editor';
import { useFlowKeys } from './hooks/use-flow-keys';
import { useFlowLayout } from './hooks/use-flow-layout';
import { useFlowPanel } from './hooks/use-flow-panel';
import { useFlowPositions } from './hooks/use-flow-positions';
import { useFlowRules } from './hooks/use-flow-rules';
import { useAddedMenuInView, useFlowViewport } from './hooks/use-flow-viewport';
import { useSessionPath } from './hooks/use-session-path';
import { LoadErrorPanel } from '../../components/load-error-panel';

/**
 * Flow map (/app/design/{appId}/flow): the app's menus as a graph, and a second editor of the same draft. On a
 * wide screen a click opens the menu's form in a side panel, a dot dragged to a menu draws a rule, a rule's end
 * dragged elsewhere rewires it, Delete removes the selected rule or menu, and Undo takes back the last change. On
 * a phone the map reads only, and a click opens the menu in the menu list.
 *
 * Each step is a hook of its own: where boxes stand (useFlowPositions), the session path (useSessionPath), the
 * layout (useFlowLayout), where the map looks (useFlowViewport), rules and the side panel (useFlowRules,
 * useFlowPanel), keys (useFlowKeys) and what is drawn over the layout (useFlowDecorations).
 */
export function FlowMapPage() {
  const { appId = '' } = useParams();
  const data = useAppMenus(appId);
  const editor = useFlowEditor(appId, data);
  const scheme = useComputedColorScheme('light');
  const [showBack, setShowBack] = useState(true);
  const isPhone = useMediaQuery('(max-width: 36em)') ?? false;
  // Editing needs room for the map beside the form and a pointer to draw with.
  const isEditable = useMediaQuery('(min-width: 62em)') ?? false;
  const { app, menus } = data;
  const menuById = useMemo(() => new Map(menus.map((m) => [m.uniqueId, m])), [menus]);
  const nameOf = (id: string) => menuById.get(id)?.userDefinedName || id;

  const positions = useFlowPositions(appId, data);
  const sessionPath = useSessionPath(appId);
  const layout = useFlowLayout(appId, data, positions.direction, isEditable);
  const view = useFlowViewport(layout.nodes, menus, sessionPath.path, menuById);
  const rules = useFlowRules(editor, menuById, nameOf);
  const { panel, panelMenu, ...panels } = useFlowPanel({
    appId,
    menus,
    menuById,
    editor,
    isEditable,
    flow: view.flow,
    onOpen: () => rules.selectEdge(null),
  });
  useAddedMenuInView(layout.nodes, view.flow, panel);
  const shown = useFlowDecorations({
    nodes: layout.nodes,
    edges: layout.edges,
    movedAt: positions.movedAt,
    onPath: sessionPath.onPath,
    showBack,
    selectedEdgeId: rules.selectedEdgeId,
    flow: view.flow,
  });
  const keys = useFlowKeys({
    isEditable,
    editor,
    menuById,
    selectedRule: rules.selectedRule,
    deleteSelectedRule: rules.deleteSelectedRule,
    deleteMenu: panels.deleteMenu,
  });

  const previewApp = toPreviewApp(appId, app, menus);
  const path = sessionPath.path;

  return (
    <Stack gap="md">
      <FlowMapHeader
        appId={appId}
        app={app}
        showBack={showBack}
        onShowBackChange={setShowBack}
        direction={positions.direction}
        onDirectionChange={positions.setDirection}
      />

      {data.loadError ? (
        <LoadErrorPanel message={data.loadError.message} onRetry={() => void data.retry()} />
      ) : data.isPending ? (
        <Skeleton height={480} radius="lg" aria-busy="true" aria-label="Loading the flow map" data-testid="flow-loading" />
      ) : menus.length === 0 && !panel ? (
        <EmptyPanel
          testId="flow-empty"
          icon={<IconSitemap size={28} />}
          title="No menus yet"
          description={
            isEditable
              ? 'Add the first menu here or in the menu list; the map draws the menus and their navigation rules.'
              : 'Add menus in the menu list; the map draws them and their navigation rules.'
          }
          action={
            isEditable ? (
              <Button leftSection={<IconPlus size={16} />} onClick={() => panels.openPanel(null)}>
                Add the first menu
              </Button>
            ) : (
              <Button component={Link} to={`/app/design/${encodeURIComponent(appId)}`} variant="default">
                Open the menu list
              </Button>
            )
          }
        />
      ) : (
        <>
          {sessionPath.sessionId && (
            <SessionPathBanner
              sessionId={sessionPath.sessionId}
              isPending={sessionPath.isPending}
              error={sessionPath.error}
              path={path}
              missing={path ? new Set(path.steps.filter((s) => !menuById.has(s.menuId)).map((s) => s.menuId)).size : 0}
              onClear={sessionPath.clear}
            />
          )}
          {!isEditable && (
            <Alert color="blue" variant="light" icon={<IconDeviceMobile size={18} />} data-testid="flow-read-only">
              The map is read-only on a small screen: tap a menu to edit it in the menu list, or open the map on a wider screen to edit it
              here.
            </Alert>
          )}
          <FlowMapToolbar
            isEditable={isEditable}
            isAdding={panel?.menuId === null}
            onAdd={() => panels.openPanel(null)}
            lastChange={editor.lastChange}
            isBusy={editor.isBusy}
            onUndo={keys.undo}
            hasMoved={positions.hasMoved}
            onTidyUp={() => void positions.tidyUp()}
            counts={layout.counts}
            menus={menus}
            foundId={shown.foundId}
            onFind={shown.findMenu}
          />
          <Group align="flex-start" gap="md" wrap="nowrap">
            <FlowMapCanvas
              direction={positions.direction}
              scheme={scheme}
              isPhone={isPhone}
              nodes={shown.nodes}
              edges={shown.edges}
              isEditable={isEditable}
              isBusy={editor.isBusy}
              startAt={view.startAt}
              onInit={view.onInit}
              isZoomedIn={view.isZoomedIn}
              onMoveEnd={view.onMoveEnd}
              onNodesChange={positions.onNodesChange}
              onNodesDropped={(dropped) => void positions.savePositions(dropped, shown.nodes)}
              onNodeClick={panels.openNode}
              onSelectEdge={rules.selectEdge}
              onConnect={rules.connect}
              onReconnect={rules.reconnect}
              onBeforeDelete={keys.onBeforeDelete}
            >
              {rules.selectedRule && (
                <FlowRuleBar
                  selected={rules.selectedRule}
                  nameOf={nameOf}
                  isBusy={editor.isBusy}
                  onEditRules={() => panels.openPanel(rules.selectedRule!.menu.uniqueId, 'navigation')}
                  onDelete={() => void rules.deleteSelectedRule()}
                />
              )}
            </FlowMapCanvas>
            {isEditable && panel && panelMenu && (
              <div style={{ width: 480, flexShrink: 0, maxHeight: 'max(440px, calc(100dvh - 290px))', overflowY: 'auto' }}>
                <FlowMenuPanel
                  app={previewApp}
                  panel={panel}
                  menu={panelMenu}
                  saved={panel.menuId ? (menuById.get(panel.menuId) ?? null) : null}
                  liteMenus={data.liteMenus}
                  lintIssues={data.lintIssues}
                  isBusy={editor.isBusy}
                  onSubmit={panels.submitPanel}
                  onClose={panels.closePanel}
                  onDirtyChange={panels.setDirty}
                  onMakeFirst={(m) => void editor.makeFirst(m)}
                  onDelete={panels.deleteMenu}
                />
              </div>
            )}
          </Group>
          <FlowLegend isEditable={isEditable} hasSubflows={layout.nodes.some((node) => node.data.kind === 'subflow')} />
        </>
      )}
      <FlowRuleDialog request={rules.ruleRequest} onCancel={rules.cancelRule} onSave={rules.saveRule} />
    </Stack>
  );
}
