/**
 * The bot identity every test bot runs as.
 *
 * Pass it as `new Bot(token, { botInfo: FAKE_BOT_INFO, ... })` so grammY never calls `getMe`
 * during `bot.init()` and `bot.handleUpdate` works straight away. The emulator answers `getMe`
 * with the same object, so a real-process bot that does call `getMe` sees the same identity.
 */
import type { UserFromGetMe } from "grammy/types";

/** A syntactically valid (but fake) token; the fake server accepts any token. */
export const FAKE_BOT_TOKEN = "7000000001:AAFakeTokenForTestsOnly_0123456789ab";

export const FAKE_BOT_INFO: UserFromGetMe = {
  id: 7000000001,
  is_bot: true,
  first_name: "PPOB Test Bot",
  username: "ppob_test_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};
