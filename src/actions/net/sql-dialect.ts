import type { DbaccessCode } from '../../shared/app';

export type DbDialect = DbaccessCode['dialect'];

export const DEFAULT_PORTS: Record<DbDialect, number> = { postgres: 5432, mysql: 3306, mssql: 1433 };
