/** Telegram's answers as they appear on the wire, and the errors the emulator answers with. */

export type ApiResponse = ApiSuccess | ApiFailure;
export interface ApiSuccess {
  ok: true;
  result: unknown;
}
export interface ApiFailure {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** A success response. */
export const apiOk = (result: unknown = true): ApiSuccess => ({ ok: true, result });

/** An error response like Telegram's. */
export function apiError(error_code: number, description: string, retryAfter?: number): ApiFailure {
  return retryAfter === undefined
    ? { ok: false, error_code, description }
    : { ok: false, error_code, description, parameters: { retry_after: retryAfter } };
}

/** Common Telegram errors, as Telegram words them. */
export const TelegramErrors = {
  tooManyRequests: (retryAfter: number) =>
    apiError(429, `Too Many Requests: retry after ${retryAfter}`, retryAfter),
  blocked: () => apiError(403, "Forbidden: bot was blocked by the user"),
  userDeactivated: () => apiError(403, "Forbidden: user is deactivated"),
  chatNotFound: () => apiError(400, "Bad Request: chat not found"),
  internal: () => apiError(500, "Internal Server Error"),
} as const;

/** Thrown while decoding or answering a request to answer it with an error. */
export class ApiErrorResponse extends Error {
  constructor(readonly response: ApiFailure) {
    super(response.description);
  }
}

export const badRequest = (detail: string) => new ApiErrorResponse(apiError(400, `Bad Request: ${detail}`));
