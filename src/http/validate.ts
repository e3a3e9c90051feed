import type { Request } from "express";
import type { z } from "zod";
import { ValidationError, fieldsFromZod } from "./errors.js";

export const NUL_MESSAGE = "Contains a character that is not allowed (NUL)";
export const SURROGATE_MESSAGE = "Contains a character that is not allowed (a lone UTF-16 surrogate)";

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text, or undefined when it can. */
const stringProblem = (value: string) =>
  value.includes("\u0000") ? NUL_MESSAGE : LONE_SURROGATE.test(value) ? SURROGATE_MESSAGE : undefined;

/**
 * Postgres text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate (JSON's "\ud800") is not valid
 * Unicode: jsonb refuses it and text stores U+FFFD instead. Every string in the input (at any depth, keys
 * included) that holds one is named by its path, like fieldsFromZod names zod's issues.
 */
export function unstorableFields(input: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  const walk = (value: unknown, path: string[], depth: number) => {
    if (typeof value === "string") {
      const problem = stringProblem(value);
      if (problem) fields[path.length ? path.join(".") : "_"] ??= problem;
    } else if (value && typeof value === "object" && depth < 32) {
      for (const [key, item] of Object.entries(value)) {
        const keyProblem = stringProblem(key);
        if (keyProblem) fields[[...path, key].join(".")] ??= keyProblem;
        else walk(item, [...path, key], depth + 1);
      }
    }
  };
  walk(input, [], 0);
  return fields;
}

/** A 400's top-level message when the first problem should lead (the spec's texts); `fields` names every one. */
export const firstProblem = (fields: Record<string, string>) => Object.values(fields)[0] ?? "Invalid input";

/** The top-level message of a failed parse: fixed, or computed from the fields it names. */
export type FailureMessage = string | ((fields: Record<string, string>) => string);

/**
 * Parses input with a zod schema; a failure is a 400 that names every invalid field. A string holding
 * a NUL character or a lone surrogate is refused here for every schema (whatever the field), so bad
 * input never reaches SQL.
 */
export function parse<S extends z.ZodType>(
  schema: S,
  input: unknown,
  message: FailureMessage = "Invalid input",
): z.infer<S> {
  const unstorable = unstorableFields(input);
  const result = schema.safeParse(input);
  if (result.success && !Object.keys(unstorable).length) return result.data;
  // NUL and surrogate fields lead, and their message wins over the schema's for the same field.
  const fields = { ...unstorable, ...(result.success ? {} : fieldsFromZod(result.error)), ...unstorable };
  throw new ValidationError(typeof message === "function" ? message(fields) : message, fields);
}

export const body = <S extends z.ZodType>(req: Request, schema: S, message?: FailureMessage) =>
  parse(schema, req.body ?? {}, message);
export const query = <S extends z.ZodType>(req: Request, schema: S) => parse(schema, req.query);
export const params = <S extends z.ZodType>(req: Request, schema: S) => parse(schema, req.params);
