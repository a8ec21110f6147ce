/** Addresses of the flow map, kept apart from the page so linking to it does not load React Flow. */
export const flowMapPath = (appId: string) => `/app/design/${encodeURIComponent(appId)}/flow`;

/** The flow map with the path one session took highlighted. */
export const sessionPathUrl = (appId: string, sessionId: string) => `${flowMapPath(appId)}?session=${encodeURIComponent(sessionId)}`;

/** The designer opens this menu's edit form (on a tab) when it loads. */
export const designMenuPath = (appId: string, menuId: string, tab?: string) =>
  `/app/design/${encodeURIComponent(appId)}?menu=${encodeURIComponent(menuId)}${tab ? `&tab=${tab}` : ''}`;
