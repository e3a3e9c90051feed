import type { Request } from "express";
import type { z } from "zod";
import { ValidationError, fieldsFromZod } from "./errors.js";

/** Parses input with a zod schema; a failure is a 400 that names every invalid field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, message = "Invalid input"): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(message, fieldsFromZod(result.error));
  return result.data;
}

export const body = <S extends z.ZodType>(req: Request, schema: S) => parse(schema, req.body ?? {});
export const query = <S extends z.ZodType>(req: Request, schema: S) => parse(schema, req.query);
export const params = <S extends z.ZodType>(req: Request, schema: S) => parse(schema, req.params);
