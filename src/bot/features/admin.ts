/** Admin broadcast (not built yet). Non-admins get no sign that admin commands exist. */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";

export const adminModule: FeatureModule = { composer: new Composer<BotContext>() };
