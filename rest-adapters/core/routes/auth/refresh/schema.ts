import { Type } from '@sinclair/typebox';

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 200 }) });
