import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_KINDS, STATUS, findErrorKind } from '../../shared/errors';
import { findSqlState } from '../log';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';
const TOO_LARGE_MESSAGE = 'The request is too large';
const formatBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${Math.round(bytes / 1024)} KB`);
export const INVALID_VALUE_MESSAGE = 'A value in the request is not valid (out of range or malformed).';

/**
 * The one error handler (docs/architecture.md, The server shell): services throw AppError, schemas reject bad input, and this maps
 * both to the envelope. 5xx replies never carry internals; they are logged instead.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.httpStatus >= 500) request.log.error({ err: error }, error.message);
      return reply.code(error.httpStatus).send({ status: error.status, message: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
      const message = first?.message ?? 'Invalid request';
      return reply.code(400).send({
        status: STATUS.invalid,
        message,
        errors: error.validation.map((v) => ({ field: v.instancePath.replace(/^\//, '').replace(/\//g, '.'), message: v.message })),
        ...(field ? { field } : {}),
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply.code(500).send({ status: STATUS.internal, message: INTERNAL_MESSAGE });
    }
    // PostgreSQL's "data exception" class (22xxx: a date or number out of range, a malformed uuid, bad text)
    // means a value from the request reached a query that the schemas should have refused: the caller gets a
    // 400, and the log a warning so the schema can be tightened.
    if (findSqlState(error)?.startsWith('22')) {
      request.log.warn({ err: error }, 'a request value was refused by the database');
      return reply.code(400).send({ status: STATUS.invalid, message: INVALID_VALUE_MESSAGE });
    }
    // Fastify's own text ("Request body is too large") does not say how large a body may be.
    if ('code' in error && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? 1024 * 1024;
      return reply.code(413).send({ status: STATUS.invalid, message: `${TOO_LARGE_MESSAGE} (at most ${formatBytes(limit)}).` });
    }
    const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send({ status: ERROR_KINDS[findErrorKind(statusCode)].status, message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ status: STATUS.internal, message: INTERNAL_MESSAGE });
  });
}
