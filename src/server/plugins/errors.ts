import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, STATUS } from '../../shared/errors';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

/**
 * The one error handler (STYLE.md idea 5): services throw AppError, schemas reject bad input, and this maps
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
    const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (statusCode >= 400 && statusCode < 500) {
      const status = statusCode === 404 ? STATUS.notFound : statusCode === 401 || statusCode === 403 || statusCode === 429 ? STATUS.notAllowed : STATUS.invalid;
      return reply.code(statusCode).send({ status, message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ status: STATUS.internal, message: INTERNAL_MESSAGE });
  });
}
