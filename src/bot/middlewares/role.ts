/**
 * `ctx.role`: who the chat is (domain/roles.ts), resolved from the record this update already read,
 * on first use, so an update that never asks (or whose record is unreadable) costs nothing. A change of
 * role made elsewhere (staff removed by its owner, on this process or another) shows at the next update,
 * which reads the record again.
 */
import type { MiddlewareFn } from "grammy";
import { roleOf, type Role } from "../../domain/roles.js";
import type { BaseContext } from "../context.js";
import { ChatRecordContext } from "./chatRecord.js";

export const role: MiddlewareFn<BaseContext> = (ctx, next) => {
  // The bot's own context class has the getter (chatRecord.ts); a flow's context gets one here.
  if (ctx instanceof ChatRecordContext) return next();
  let resolved: { of: unknown; role: Role } | undefined;
  Object.defineProperty(ctx, "role", {
    get: (): Role => {
      const record = ctx.chatRecord; // throws while the store is unreachable, as any read of it
      if (resolved === undefined || resolved.of !== record) resolved = { of: record, role: roleOf(record) };
      return resolved.role;
    },
    configurable: true,
    enumerable: true,
  });
  return next();
};

/**
 * The role where an unknown one (the store is unreachable) may pass as "not known": the menu, help and
 * the key prompt still answer then. Undefined while the chat's record cannot be read.
 */
export function knownRole(ctx: BaseContext): Role | undefined {
  try {
    return ctx.role;
  } catch {
    return undefined;
  }
}
