/** Deposits (/deposit) (not built yet: answers "coming soon"). */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";
import { comingSoon } from "./menu.js";

const composer = new Composer<BotContext>();
composer.command(["deposit"], comingSoon);

export const depositModule: FeatureModule = { composer, menu: { deposit: comingSoon } };
