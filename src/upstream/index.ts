export * from "./types.js";
export { ENDPOINTS, type EndpointPath } from "./endpoints.js";
export {
  GENERIC_REJECTION_MESSAGE,
  UpstreamError,
  UpstreamRejected,
  UpstreamUnavailable,
  UpstreamUnexpected,
  isRejected,
  isUnavailable,
  isUnexpected,
  isUpstreamError,
  redactSecret,
  type TransportFailure,
  type UnavailableReason,
} from "./errors.js";
export { UpstreamClient, type UpstreamClientOptions } from "./client.js";
export { decodeAnswer, decodeBody, parseStatusFlag, type DecodeContext, type HttpAnswer } from "./decode.js";
export { parseMoney, skippedItems, type SkippedItem } from "./schemas/fields.js";
