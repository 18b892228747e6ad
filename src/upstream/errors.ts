/**
 * Typed failures of the upstream client. Callers branch on the class (or `kind`) and on
 * `outcomeUnknown`: when true, a create call may have moved money, so the caller must look the
 * operation up by its status endpoint (or its reff_id) before ever trying it again.
 *
 * Secrets: every message and own field is built only from the endpoint path, a reason, an HTTP
 * status and the provider's own message (with the api key redacted). Transport errors are never
 * attached as `cause`; only a redacted code/message summary is kept.
 */

export type UnavailableReason = "timeout" | "network" | "http" | "html" | "malformed";

/** Shown when the provider said `status:false` without any message. */
export const GENERIC_REJECTION_MESSAGE = "The provider refused the request without giving a reason.";

const OUTCOME_UNKNOWN_NOTE = "; outcome unknown: check the status before trying again";

export class UpstreamError extends Error {
  readonly kind: "rejected" | "unavailable" | "unexpected";
  /** Endpoint path, e.g. `/transaksi/create`. */
  readonly endpoint: string;
  /** True when the request may have taken effect (create endpoints failing after sending). */
  readonly outcomeUnknown: boolean;

  constructor(
    kind: UpstreamError["kind"],
    endpoint: string,
    outcomeUnknown: boolean,
    message: string,
    cause?: TransportFailure,
  ) {
    super(message, cause ? { cause } : undefined);
    this.name = new.target.name;
    this.kind = kind;
    this.endpoint = endpoint;
    this.outcomeUnknown = outcomeUnknown;
  }
}

/** The provider answered `status:false`: the request was refused, nothing happened. */
export class UpstreamRejected extends UpstreamError {
  readonly providerMessage: string;
  // `declare`: no own `undefined` property when absent (keeps serialized errors tidy).
  declare readonly providerCode?: number;

  constructor(endpoint: string, providerMessage: string | undefined, providerCode?: number) {
    const text = providerMessage?.trim() ? providerMessage.trim() : GENERIC_REJECTION_MESSAGE;
    super("rejected", endpoint, false, `${endpoint}: provider refused the request: ${text}`);
    this.providerMessage = text;
    if (providerCode !== undefined) this.providerCode = providerCode;
  }
}

/** Redacted summary of a transport error (kept instead of the raw undici error). */
export interface TransportFailure {
  code?: string;
  message: string;
}

/** No usable answer: network, timeout, 5xx, an HTML page (Cloudflare) or broken JSON. */
export class UpstreamUnavailable extends UpstreamError {
  readonly reason: UnavailableReason;
  declare readonly httpStatus?: number; // see providerCode

  constructor(
    endpoint: string,
    reason: UnavailableReason,
    opts: { outcomeUnknown: boolean; httpStatus?: number; cause?: TransportFailure },
  ) {
    const status = opts.httpStatus !== undefined ? `, HTTP ${opts.httpStatus}` : "";
    super(
      "unavailable",
      endpoint,
      opts.outcomeUnknown,
      `${endpoint}: provider unavailable (${reason}${status})${opts.outcomeUnknown ? OUTCOME_UNKNOWN_NOTE : ""}`,
      opts.cause,
    );
    this.reason = reason;
    if (opts.httpStatus !== undefined) this.httpStatus = opts.httpStatus;
  }
}

/** `status:true` but the body does not match the expected shape. */
export class UpstreamUnexpected extends UpstreamError {
  /** Failing path, e.g. `data.price` or `data[3].price`. */
  readonly field: string;

  constructor(endpoint: string, field: string, detail: string, outcomeUnknown: boolean) {
    super(
      "unexpected",
      endpoint,
      outcomeUnknown,
      `${endpoint}: unexpected response at ${field}: ${detail}${outcomeUnknown ? OUTCOME_UNKNOWN_NOTE : ""}`,
    );
    this.field = field;
  }
}

export const isUpstreamError = (e: unknown): e is UpstreamError => e instanceof UpstreamError;
export const isRejected = (e: unknown): e is UpstreamRejected => e instanceof UpstreamRejected;
export const isUnavailable = (e: unknown): e is UpstreamUnavailable => e instanceof UpstreamUnavailable;
export const isUnexpected = (e: unknown): e is UpstreamUnexpected => e instanceof UpstreamUnexpected;

/**
 * The provider refused for the account's balance. Its low-balance body is not public
 * (upstream-notes.md): the sandbox answers "Saldo tidak mencukupi" with code 402; the words are matched
 * too, in Indonesian or English, so another spelling is still read as the balance.
 */
export function isLowBalanceRefusal(err: UpstreamRejected): boolean {
  return err.providerCode === 402 || /saldo\s+(anda\s+)?(tidak\s+(men)?cukup|kurang)|insufficient\s+balance|balance\s+(is\s+)?(too\s+low|insufficient)/i.test(err.providerMessage);
}

/**
 * Removes a secret from text the provider or the transport produced (the provider might echo the
 * key back in a message). Also covers the form-encoded spelling of the key.
 */
export function redactSecret(text: string, secret: string): string {
  if (!secret) return text;
  let out = text.split(secret).join("[redacted]");
  const encoded = new URLSearchParams({ k: secret }).toString().slice(2);
  if (encoded !== secret) out = out.split(encoded).join("[redacted]");
  return out;
}
