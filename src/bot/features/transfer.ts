/** Account check and transfer (/transfer) (not built yet: answers "coming soon"). */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";
import { comingSoon } from "./menu.js";

const composer = new Composer<BotContext>();
composer.command(["transfer"], comingSoon);

export const transferModule: FeatureModule = { composer, menu: { transfer: comingSoon } };
