import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_KINDS, STATUS, findErrorKind } from '../../shared/errors';
import { findSqlState } from '../log';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';
const TOO_LARGE_MESSAGE = 'The request is too large';
const formatBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${Math.round(bytes / 1024)} KB`);
export const INVALID_VALUE_MESSAGE = 'A value in the request is not valid (out of range or malformed).';

/**
 * Our words for the errors Fastify and Node's HTTP parser raise before a route runs, by their code: their own
 * texts ("'/api/…' is exceeding the max param length", "Client Error") name internals and not what to fix.
 */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long: a part of its path is over 100 characters.',
  FST_ERR_BAD_URL: 'The address is not valid: its path has a malformed %-escape.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; this call expects JSON.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "The request's Content-Type is not one this server reads (send application/json).",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body is not as long as its Content-Length says.',
  ERR_HTTP_REQUEST_TIMEOUT: 'The request took too long to arrive.',
  HPE_HEADER_OVERFLOW: "The request's headers are too large.",
};
const MALFORMED_REQUEST_MESSAGE = 'The request is not valid HTTP.';

/**
 * The one error handler (docs/architecture.md, The server shell): services throw AppError, schemas reject bad input, and this maps
 * both to the envelope. 5xx replies never carry internals; they are logged instead.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(replyWithError);
}

/**
 * Fastify's `frameworkErrors` option: the errors its router raises before any route or hook (a path part over
 * `maxParamLength`, 414; a malformed %-escape, 400) get the envelope like every other error.
 */
export function replyWithFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  replyWithError(error, request, reply);
}

/**
 * Fastify's `clientErrorHandler` option: a request Node cannot parse (headers too large, 431; a broken request
 * line, 400; too slow, 408) is answered on the socket, before Fastify sees it, with the envelope too.
 */
export function replyToClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const httpStatus = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ status: STATUS.invalid, message: FRAMEWORK_MESSAGES[error.code ?? ''] ?? MALFORMED_REQUEST_MESSAGE });
  socket.write(
    `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroy(error);
}

function replyWithError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
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
    const message = ('code' in error && FRAMEWORK_MESSAGES[String(error.code)]) || error.message;
    return reply.code(statusCode).send({ status: ERROR_KINDS[findErrorKind(statusCode)].status, message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ status: STATUS.internal, message: INTERNAL_MESSAGE });
}
