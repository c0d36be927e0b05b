import type { RequestHandler } from 'express';
import { inputProblemError } from './errors.ts';
import { findBadInput } from './storable.ts';

export { findBadInput, isStorableString, MAX_JSON_DEPTH, type InputProblem } from './storable.ts';

/**
 * Once, at the boundary, for every service: the parsed JSON body and the query string must hold only
 * storable values (see findBadInput), else 400 VALIDATION_ERROR naming the field, before any route runs.
 * A service that parses its body later (billing: after the webhooks' raw bodies) is covered by `parse`,
 * which makes the same check on whatever it is given.
 */
export const inputGuard: RequestHandler = (req, _res, next) => {
  const problem = findBadInput(req.body) ?? findBadInput(req.query, 4);
  next(problem ? inputProblemError(problem) : undefined);
};
