-- A hop's log lines and the inputs it stored go in one app_logs row (docs/runtime.md, "What a hop keeps"); rows
-- written before keep one line each in their columns, and inputs rows stay in session_inputs. Readers read lines
-- through app_log_lines, which unpacks both kinds: a line's id is its row's id * 1000 plus its place in the row.
ALTER TABLE "app_logs" ADD COLUMN "lines" jsonb;--> statement-breakpoint
ALTER TABLE "app_logs" ADD COLUMN "inputs" jsonb;--> statement-breakpoint
CREATE VIEW "app_log_lines" AS
SELECT l.id * 1000 + x.n AS id, l.id AS row_id, l.app_id, l.session_id, l.environment, l.caller,
  CASE WHEN x.n = 0 THEN l.level ELSE x.line ->> 'level' END AS level,
  CASE WHEN x.n = 0 THEN l.type ELSE x.line ->> 'type' END AS type,
  CASE WHEN x.n = 0 THEN l.menu_id ELSE x.line ->> 'menuId' END AS menu_id,
  CASE WHEN x.n = 0 THEN l.menu ELSE x.line ->> 'menu' END AS menu,
  CASE WHEN x.n = 0 THEN l.plugin ELSE x.line ->> 'plugin' END AS plugin,
  CASE WHEN x.n = 0 THEN l.action ELSE x.line ->> 'action' END AS action,
  CASE WHEN x.n = 0 THEN l.message ELSE x.line ->> 'message' END AS message,
  CASE WHEN x.n = 0 THEN l.data ELSE x.line -> 'data' END AS data,
  CASE WHEN x.n = 0 THEN l.created_at
    ELSE l.created_at + make_interval(secs => coalesce((x.line ->> 'ms')::double precision, 0) / 1000) END AS created_at,
  l.created_at AS row_created_at
FROM app_logs l
CROSS JOIN LATERAL (
  SELECT 0::bigint AS n, NULL::jsonb AS line WHERE l.lines IS NULL
  UNION ALL
  SELECT e.n, e.line FROM jsonb_array_elements(l.lines) WITH ORDINALITY AS e(line, n) WHERE l.lines IS NOT NULL
) x;
