import { type TSchema, Type } from '@sinclair/typebox';

/** A value that may be null (OpenAPI 3.1 / JSON Schema: a union with null). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
